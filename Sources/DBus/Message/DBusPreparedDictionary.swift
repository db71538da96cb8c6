internal import CDBus

/// An `a{sv}` laid out once for libdbus, for a map that goes into many messages (a track's
/// metadata, answered page after page by GetTracksMetadata).
///
/// Written value by value, a map costs a Swift string conversion and a check per string and a
/// closure per container on every message. Here every key and string value is copied once, as
/// a C string, into one buffer, and checked for what libdbus refuses (NUL, invalid UTF-8) as it
/// is copied; writing the map is then the libdbus calls alone. A map with a bad string keeps
/// the problem, and a writer that appends it stops with it, as it would have with the values.
///
/// Immutable once built, so one prepared map may be written by several threads at once.
public final class DBusPreparedDictionary: @unchecked Sendable {
    /// The value of one entry, as it is given to the initialiser.
    public enum Value: Sendable {
        /// An `s`.
        case string(String)
        /// An `o`.
        case objectPath(ObjectPath)
        /// The `o` `<parent>/<number>` (``ObjectPath/appending(number:)``), spelled out only here.
        case numberedObjectPath(parent: ObjectPath, number: UInt64)
        /// An `i`.
        case int32(Int32)
        /// An `x`.
        case int64(Int64)
        /// A `d`.
        case double(Double)
        /// An `as`.
        case strings([String])
        /// Any other value; written through the general path, validated when the map is built.
        case other(DBusValue)
    }

    private enum Kind: UInt8 {
        case string, objectPath, int32, int64, double, strings, other
    }

    /// One entry: where its key and values are in `bytes`, or the scalar's bits.
    private struct Entry {
        /// A scalar's bits; for strings the offset of the first, for `other` its index in `others`.
        var value: UInt64
        var key: UInt32
        /// How many strings an `as` holds.
        var count: UInt32
        var kind: Kind
    }

    /// The entries, then the NUL-terminated keys and strings they point into (one allocation).
    private let storage: UnsafeMutableRawPointer
    private let entryCount: Int
    private let others: [(value: DBusValue, signature: DBusSignatureText)]
    /// The first string or value that libdbus would refuse; such a map is never written.
    public let problem: DBusError?

    /// Builds the map from the entries `entries` adds, in that order.
    ///
    /// `entries` is called twice, once to measure and once to copy, and must add the same
    /// entries both times.
    public init(_ entries: (_ add: (String, Value) -> Void) -> Void) {
        var count = 0
        var byteCount = 0
        entries { key, value in
            count += 1
            byteCount += key.utf8.count + 1
            switch value {
            case .string(let string): byteCount += string.utf8.count + 1
            case .objectPath(let path): byteCount += path.rawValue.utf8.count + 1
            case .numberedObjectPath(let parent, _): byteCount += parent.rawValue.utf8.count + 22
            case .strings(let strings): byteCount += strings.reduce(0) { $0 + $1.utf8.count + 1 }
            case .int32, .int64, .double, .other: break
            }
        }
        let entryBytes = count * MemoryLayout<Entry>.stride
        storage = .allocate(byteCount: max(entryBytes + byteCount, 1), alignment: MemoryLayout<Entry>.alignment)
        let entryTable = storage.bindMemory(to: Entry.self, capacity: count)
        let bytes = (storage + entryBytes).bindMemory(to: UInt8.self, capacity: byteCount)
        var filler = Filler(bytes: bytes, capacity: byteCount)
        var others: [(value: DBusValue, signature: DBusSignatureText)] = []
        var index = 0
        entries { key, value in
            // The measuring pass saw `count` entries and `byteCount` bytes; a closure that adds
            // more the second time would write past the buffer.
            precondition(index < count, "DBusPreparedDictionary: entries added more the second time")
            let keyOffset = filler.copy(key)
            let entry: Entry
            switch value {
            case .string(let string):
                entry = Entry(value: UInt64(filler.copy(string)), key: keyOffset, count: 1, kind: .string)
            case .objectPath(let path):
                entry = Entry(value: UInt64(filler.copy(path.rawValue, trusted: true)), key: keyOffset, count: 1,
                              kind: .objectPath)
            case .numberedObjectPath(let parent, let number):
                entry = Entry(value: UInt64(filler.copy(parent, number: number)), key: keyOffset, count: 1,
                              kind: .objectPath)
            case .int32(let number):
                entry = Entry(value: UInt64(UInt32(bitPattern: number)), key: keyOffset, count: 0, kind: .int32)
            case .int64(let number):
                entry = Entry(value: UInt64(bitPattern: number), key: keyOffset, count: 0, kind: .int64)
            case .double(let number):
                entry = Entry(value: number.bitPattern, key: keyOffset, count: 0, kind: .double)
            case .strings(let strings):
                let first = filler.end
                for string in strings { _ = filler.copy(string) }
                entry = Entry(value: UInt64(first), key: keyOffset, count: UInt32(strings.count), kind: .strings)
            case .other(let value):
                do throws(DBusError) {
                    try value.validate()
                } catch {
                    filler.fail(error)
                }
                entry = Entry(value: UInt64(others.count), key: keyOffset, count: 0, kind: .other)
                others.append((value, DBusSignatureText(value.type)))
            }
            (entryTable + index).initialize(to: entry)
            index += 1
        }
        precondition(index == count, "DBusPreparedDictionary: entries added fewer the second time")
        entryCount = count
        self.others = others
        problem = filler.problem
    }

    deinit {
        storage.deallocate()
    }

    /// Copies strings into the buffer, checking each, and remembers the first bad one.
    private struct Filler {
        let bytes: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var end = 0
        var problem: DBusError?

        mutating func fail(_ error: DBusError) {
            if problem == nil { problem = error }
        }

        /// Copies `string` and its NUL; returns where it starts.
        mutating func copy(_ string: String, trusted: Bool = false) -> UInt32 {
            let start = end
            var text = string
            var plainASCII = true
            text.withUTF8 { utf8 in
                precondition(end + utf8.count < capacity, "DBusPreparedDictionary: a string grew between the passes")
                for byte in utf8 {
                    if byte == 0 || byte >= 0x80 { plainASCII = false }
                    bytes[end] = byte
                    end += 1
                }
            }
            bytes[end] = 0
            end += 1
            // ASCII without NUL passes every check; otherwise ask libdbus on the copy (which a
            // NUL would cut short, so look for one first).
            if !trusted, !plainASCII {
                let copied = UnsafeBufferPointer(start: bytes + start, count: end - start - 1)
                let valid = !copied.contains(0) && UnsafeRawPointer(bytes + start)
                    .withMemoryRebound(to: CChar.self, capacity: end - start) { dbus_validate_utf8($0, nil) != 0 }
                if !valid { fail(DBusError(.invalidArgs, "string contains NUL or invalid UTF-8")) }
            }
            return UInt32(start)
        }

        /// Copies the path `<parent>/<number>` (``ObjectPath/appending(number:)``) and its NUL.
        mutating func copy(_ parent: ObjectPath, number: UInt64) -> UInt32 {
            let start = end
            var text = parent.rawValue
            text.withUTF8 { utf8 in
                precondition(end + utf8.count + 22 <= capacity, "DBusPreparedDictionary: a path grew between the passes")
                if utf8.count != 1 {
                    for byte in utf8 {
                        bytes[end] = byte
                        end += 1
                    }
                }
            }
            bytes[end] = UInt8(ascii: "/")
            end += 1
            let digits = end
            var rest = number
            repeat {
                bytes[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                end += 1
            } while rest > 0
            var digitsWritten = UnsafeMutableBufferPointer(start: bytes + digits, count: end - digits)
            digitsWritten.reverse()
            bytes[end] = 0
            end += 1
            return UInt32(start)
        }
    }

    /// Writes the map into `parent`; false if libdbus ran out of memory (the containers opened
    /// here are then abandoned).
    func write(into parent: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        let entryTable = UnsafePointer(storage.assumingMemoryBound(to: Entry.self))
        let bytes = UnsafeRawPointer(storage + entryCount * MemoryLayout<Entry>.stride)
            .assumingMemoryBound(to: CChar.self)
        return Self.container(parent, TypeCode.array, DBusSignatureText.stringVariantEntry.pointer) { array in
            for index in 0..<entryCount {
                let entry = entryTable[index]
                let written = Self.container(array, TypeCode.dictionaryEntry, nil) { pair in
                    guard Self.appendString(pair, TypeCode.string, bytes + Int(entry.key)) else { return false }
                    return Self.container(pair, TypeCode.variant, signature(of: entry)) { variant in
                        appendValue(entry, to: variant, bytes: bytes)
                    }
                }
                guard written else { return false }
            }
            return true
        }
    }

    private func signature(of entry: Entry) -> UnsafePointer<CChar> {
        switch entry.kind {
        case .string: DBusSignatureText.string.pointer
        case .objectPath: DBusSignatureText.objectPath.pointer
        case .int32: DBusSignatureText.int32.pointer
        case .int64: DBusSignatureText.int64.pointer
        case .double: DBusSignatureText.double.pointer
        case .strings: DBusSignatureText.stringArray.pointer
        case .other: others[Int(entry.value)].signature.pointer
        }
    }

    private func appendValue(
        _ entry: Entry, to variant: UnsafeMutablePointer<DBusMessageIter>, bytes: UnsafePointer<CChar>
    ) -> Bool {
        switch entry.kind {
        case .string:
            return Self.appendString(variant, TypeCode.string, bytes + Int(entry.value))
        case .objectPath:
            return Self.appendString(variant, TypeCode.objectPath, bytes + Int(entry.value))
        case .int32:
            var number = Int32(bitPattern: UInt32(truncatingIfNeeded: entry.value))
            return dbus_message_iter_append_basic(variant, TypeCode.int32, &number) != 0
        case .int64:
            var number = Int64(bitPattern: entry.value)
            return dbus_message_iter_append_basic(variant, TypeCode.int64, &number) != 0
        case .double:
            var number = Double(bitPattern: entry.value)
            return dbus_message_iter_append_basic(variant, TypeCode.double, &number) != 0
        case .strings:
            return Self.container(variant, TypeCode.array, DBusSignatureText.string.pointer) { array in
                var string = bytes + Int(entry.value)
                for _ in 0..<entry.count {
                    guard Self.appendString(array, TypeCode.string, string) else { return false }
                    while string.pointee != 0 { string += 1 }
                    string += 1
                }
                return true
            }
        case .other:
            return Message.append(others[Int(entry.value)].value, to: &variant.pointee)
        }
    }

    private static func appendString(
        _ iterator: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ string: UnsafePointer<CChar>
    ) -> Bool {
        var cString: UnsafePointer<CChar>? = string
        return dbus_message_iter_append_basic(iterator, code, &cString) != 0
    }

    /// Opens a container in `parent`, lets `body` fill it and closes it; abandons it if `body`
    /// or libdbus fails.
    private static func container(
        _ parent: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ signature: UnsafePointer<CChar>?,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        guard dbus_message_iter_open_container(parent, code, signature, &inner) != 0 else { return false }
        guard body(&inner) else {
            dbus_message_iter_abandon_container(parent, &inner)
            return false
        }
        return dbus_message_iter_close_container(parent, &inner) != 0
    }
}

extension DBusMessageWriter {
    /// Appends a prepared `a{sv}`; one with a ``DBusPreparedDictionary/problem`` stops the
    /// writing with it.
    public mutating func append(_ map: DBusPreparedDictionary) {
        guard isWriting else { return }
        if let problem = map.problem { return fail(problem) }
        if !map.write(into: iterator) { fail(DBusError(.noMemory, "out of memory while building a message")) }
    }
}
