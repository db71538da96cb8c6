import Foundation

/// What the kernel counts for a thread, to prove a thread sleeps when idle.
public enum ThreadStatistics {
    /// The kernel's id of the calling thread, to read its counters later from another thread.
    public static func currentThreadID() throws -> Int32 {
        // `/proc/thread-self` links to `<pid>/task/<tid>`; Glibc's `gettid` is not imported.
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        guard let id = target.split(separator: "/").last.flatMap({ Int32($0) }) else {
            throw TestSupportError("cannot read a thread id from /proc/thread-self -> \(target)")
        }
        return id
    }

    /// The state and counters of thread `id` of this process, read from outside it: unlike
    /// reading them on the thread itself, this does not wake the thread up.
    public static func status(ofThread id: Int32) throws -> ThreadStatus {
        let path = "/proc/self/task/\(id)/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let status = ThreadStatus(parsing: text)
        else { throw TestSupportError("cannot read \(path)") }
        return status
    }

    /// Waits until thread `id` is asleep and returns its status then. Only work handed to it,
    /// a timer or a watched descriptor can wake it again, so counters read now and later show
    /// exactly the wake-ups in between, however busy the machine is.
    public static func statusOnceAsleep(thread id: Int32, timeout: Duration = .seconds(20)) async throws -> ThreadStatus {
        let deadline = ContinuousClock.now + timeout.scaledForSanitizers
        while true {
            let status = try status(ofThread: id)
            if status.isSleeping { return status }
            guard ContinuousClock.now < deadline else {
                throw TestSupportError("thread \(id) did not go to sleep (state \(status.state))")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// One reading of `/proc/…/status` for a thread.
public struct ThreadStatus: Sendable {
    /// The state letter: `R` running, `S` sleeping (e.g. in `poll`), `D` in uninterruptible I/O.
    public let state: Character
    /// Times the thread gave up the processor: blocked or went to sleep. Every wake-up of an idle
    /// thread ends in one of these.
    public let voluntarySwitches: Int
    /// Times the thread was preempted while it could run: depends on the machine's load, not on
    /// what the thread does.
    public let involuntarySwitches: Int

    /// Both kinds of switch.
    public var contextSwitches: Int { voluntarySwitches + involuntarySwitches }
    /// Whether the thread is blocked waiting for an event.
    public var isSleeping: Bool { state == "S" }

    init?(parsing status: String) {
        var fields: [Substring: Substring] = [:]
        for line in status.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon]] = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        }
        guard let state = fields["State"]?.first,
            let voluntary = fields["voluntary_ctxt_switches"].flatMap({ Int($0) }),
            let involuntary = fields["nonvoluntary_ctxt_switches"].flatMap({ Int($0) })
        else { return nil }
        self.state = state
        voluntarySwitches = voluntary
        involuntarySwitches = involuntary
    }
}
