import Dispatch
import Synchronization

/// Runs an action once nothing has happened for a while: each ``touch()`` restarts the wait.
///
/// One wake-up at most is pending however often it is touched (a scan of 10 000 files touches it
/// 10 000 times): when it comes early, because of a later touch, it waits out the rest instead of
/// acting. No timer runs while the timer is idle.
public final class IdleTimer: Sendable {
    private struct State {
        var lastTouch = ContinuousClock.now
        var armed = false
    }

    private let state = Mutex(State())
    private let delay: Duration
    private let action = Mutex<(@Sendable () -> Void)?>(nil)

    /// The queue the actions run on: they close libraries, off every scanning and loop thread.
    private static let queue = DispatchQueue(label: "linnet.idle-timer", qos: .utility)

    /// A timer that runs its action (see ``onIdle(_:)``) once `delay` has passed since the last
    /// ``touch()``.
    public init(delay: Duration) {
        self.delay = delay
    }

    /// What to run when idle (replacing what was set before): given after creation, so that an
    /// owner can hand over a closure that refers to itself weakly.
    public func onIdle(_ action: @escaping @Sendable () -> Void) {
        self.action.withLock { $0 = action }
    }

    /// Something happened: the action waits another full `delay` from now.
    public func touch() {
        let now = ContinuousClock.now
        let arm = state.withLock { state in
            state.lastTouch = now
            defer { state.armed = true }
            return !state.armed
        }
        if arm { wake(after: delay) }
    }

    private func wake(after wait: Duration) {
        let (seconds, attoseconds) = wait.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        Self.queue.asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) { self.fire() }
    }

    private func fire() {
        let now = ContinuousClock.now
        let remaining: Duration? = state.withLock { state in
            let idle = now - state.lastTouch
            if idle < delay { return delay - idle }
            state.armed = false
            return nil
        }
        if let remaining {
            wake(after: remaining)
        } else {
            action.withLock { $0 }?()
        }
    }
}
