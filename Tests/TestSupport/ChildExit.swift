public import Foundation

/// Waits for children that Foundation's `Process` launched without depending on Foundation
/// noticing their exit.
///
/// Foundation learns of an exit from the end of file on a socket the child inherited; it never
/// came for some children in a loaded full run (gdbus, gst-launch and dbus-daemon left as
/// zombies), and `waitUntilExit()` on the test's cooperative threads then hung the whole run.
/// `waitpid` always returns once the child is gone.
public enum ChildExit {
    /// Blocks until `process` has exited: its exit status, or 128 + the signal that killed it.
    /// Reaps the child itself unless Foundation got there first, and then lets the `Process`
    /// release itself (see ``release(_:patience:)``).
    @discardableResult
    public static func wait(for process: Process) -> Int32 {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(process.processIdentifier, &status, 0)
        } while result == -1 && errno == EINTR
        guard result == process.processIdentifier else {
            // Already reaped by Foundation, which then reports the status itself.
            release(process, patience: .seconds(10))
            return process.isRunning ? -1
                : process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus
                : process.terminationStatus
        }
        release(process)
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Gives Foundation a moment to see the exit too, then lets `process` drop the run-loop
    /// source through which it retains itself (LeakSanitizer reports every Process left that
    /// way). If Foundation still has not noticed, the object is left behind rather than waited
    /// for.
    public static func release(_ process: Process, patience: Duration = .seconds(2)) {
        let deadline = ContinuousClock.now + patience
        while process.isRunning, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        if !process.isRunning { process.waitUntilExit() }
    }
}
