import EventLoop
import FoundationEssentials
import Glibc

/// Turns SIGTERM, SIGINT and SIGHUP into a callback on the loop thread. The signal handler only
/// writes a byte to a pipe (all a handler may safely do); the loop watches the pipe.
enum SignalRelay {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    private static let signals = [SIGTERM, SIGINT, SIGHUP]

    /// A parent (a test runner, a service manager) may start us with these signals blocked, and
    /// a blocked SIGTERM would make the service unstoppable except by SIGKILL.
    static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// A reader of stdout or stderr that goes away (`linnet 2>&1 | head`, a log collector
    /// restarting) must cost the lines written after it, not the player and its unsaved state:
    /// with SIGPIPE ignored such a write fails with EPIPE, which the log handler's stdio drops.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Calls `handler` with the signal number for each termination signal received.
    static func install(_ handler: @escaping @Sendable (Int32) -> Void) -> EventSource? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        writeEnd = fds[1]
        let readEnd = fds[0]
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalRelay.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        return EventLoop.shared.watch(fileDescriptor: readEnd, events: .readable) { _ in
            var byte: UInt8 = 0
            if read(readEnd, &byte, 1) == 1 { handler(Int32(byte)) }
            return .keep
        }
    }
}
