import Dispatch
public import EventLoop

extension EventLoop {
    /// Occupies the loop thread until the returned closure is called, so that work queued (and
    /// input arriving) meanwhile waits for the test to let it go. Returns once the loop is held.
    public func hold() -> @Sendable () -> Void {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        execute {
            held.signal()
            release.wait()
        }
        held.wait()
        return { release.signal() }
    }
}
