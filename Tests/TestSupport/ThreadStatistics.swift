import Foundation

/// What the kernel counts for the calling thread, to prove a thread sleeps when idle.
public enum ThreadStatistics {
    /// Voluntary plus involuntary context switches of the calling thread so far.
    public static func contextSwitchesOfCurrentThread() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8) else { return -1 }
        return status.split(separator: "\n")
            .filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
            .compactMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
            .reduce(0, +)
    }
}
