import Foundation

/// What the fuzzer's memory samples read of linnet: RSS from /proc and, when the run preloads
/// `Benchmarks/growth/heap_probe.c` into linnet (`LD_PRELOAD` plus `LINNET_HEAP_PROBE=<folder>`,
/// as `Benchmarks/fuzz/run.sh` does), the heap in use that glibc's mallinfo2 reports from inside.
/// The queue length is the fuzzer's last read of Tracks. A sample line per interval
/// (`LINNET_FUZZ_SAMPLE_SECONDS`, default 60) tells a queue the calls grew legitimately from
/// memory that grows on its own.
struct FuzzMemorySample: CustomStringConvertible {
    let seconds: Double
    let residentKB: Int
    let heapKB: Int?
    let queueLength: Int

    static let interval = ProcessInfo.processInfo.environment["LINNET_FUZZ_SAMPLE_SECONDS"].flatMap(Double.init) ?? 60

    init(seconds: Double, pid: Int32, queueLength: Int) {
        self.seconds = seconds
        residentKB = BusFuzzTests.residentKB(pid) ?? 0
        heapKB = Self.probedHeapKB()
        self.queueLength = queueLength
    }

    var description: String {
        String(format: "%.0f s: RSS %d kB, heap in use %@, queue %d tracks", seconds, residentKB,
               heapKB.map { "\($0) kB" } ?? "unknown", queueLength)
    }

    /// The probe's answer (`… heap_kib N …`), or nil without a probe. The request side is opened
    /// without blocking, so a linnet that is gone (no reader on the FIFO) answers nil at once.
    private static func probedHeapKB() -> Int? {
        guard let folder = ProcessInfo.processInfo.environment["LINNET_HEAP_PROBE"] else { return nil }
        let request = open(folder + "/request", O_WRONLY | O_NONBLOCK)
        guard request >= 0 else { return nil }
        let written = write(request, "\n", 1)
        close(request)
        guard written == 1, let reply = FileHandle(forReadingAtPath: folder + "/reply") else { return nil }
        defer { try? reply.close() }
        let text = String(decoding: reply.readDataToEndOfFile(), as: UTF8.self)
        let words = text.split(separator: " ")
        guard let index = words.firstIndex(of: "heap_kib"), index + 1 < words.count else { return nil }
        return Int(words[index + 1])
    }
}
