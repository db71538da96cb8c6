/// An object that only one loop's thread ever touches, shareable across threads as a handle.
///
/// This is how a single-threaded owner (the player) lives inside `Sendable` types without a lock:
/// every access checks that it runs on the loop's thread, so a misuse traps at once instead of
/// racing. The object is handed out by reference, so re-entrant use from the same thread (an
/// effect that feeds an input back) is allowed; the owner decides what re-entrancy means.
public final class LoopBound<Value: AnyObject>: @unchecked Sendable {
    private let object: Value
    /// The loop whose thread owns the object.
    public let loop: EventLoop

    /// Binds `object` to `loop`'s thread.
    public init(_ object: Value, loop: EventLoop) {
        self.object = object
        self.loop = loop
    }

    /// The object; only on the loop's thread (or once the loop has stopped and no thread is left
    /// to race with).
    public var value: Value {
        precondition(loop.isCurrentThread || loop.isStopped, "a loop-bound object was used off its loop thread")
        return object
    }
}
