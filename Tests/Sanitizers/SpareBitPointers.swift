// Evidence for the spare-bit entries in lsan.supp; not part of any target. Run:
//
//   swiftc -sanitize=address Tests/Sanitizers/SpareBitPointers.swift -o /tmp/spare-bits
//   /tmp/spare-bits           # the cache is alive at exit: LeakSanitizer reports its map
//   /tmp/spare-bits release   # the cache is released first: no report, exit 0
//
// An indirect enum of DBusValue's shape stores a payload case's box pointer with the case number
// in the pointer's spare high bits (the word printed on stderr), which LeakSanitizer does not
// take for a pointer; blocks reachable only through such words look leaked although their owner
// is alive. Measured here: alive → 3 direct + 1 indirect leak, the Cache object itself not
// reported; released → nothing.
import Glibc
import Synchronization

indirect enum Value {
    case byte(UInt8), boolean(Bool), int16(Int16), uint16(UInt16), int32(Int32), uint32(UInt32)
    case int64(Int64), uint64(UInt64), double(Double), string(String)
    case array([Value])
    case dictionary(key: Int, [(String, Value)])
    case variant(Value)
}

/// Same shape as MPRIS's MetadataValueCache: the last value behind a Mutex in a final class.
final class Cache: Sendable {
    let last = Mutex<Value?>(nil)
}

nonisolated(unsafe) var cache: Cache? = Cache()
cache!.last.withLock {
    $0 = .dictionary(key: 1, [("xesam:title", .variant(.string("a title long enough to need the heap")))])
}
cache!.last.withLock { value in
    // stderr is unbuffered: the line is out before LeakSanitizer ends the process.
    _ = fputs("stored word: 0x\(String(unsafeBitCast(value!, to: UInt.self), radix: 16))\n", stderr)
}
if CommandLine.arguments.contains("release") { cache = nil }

