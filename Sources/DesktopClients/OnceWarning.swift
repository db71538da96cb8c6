public import Logging
import Synchronization

/// Logs a missing desktop service as a warning the first time and at debug level after that:
/// a desktop without a notification server or inhibitor is normal and must not flood the log.
public final class OnceWarning: Sendable {
    private let warned = Atomic<Bool>(false)

    /// Logs `message` on `logger`, as a warning only the first time.
    public func log(_ message: String, on logger: Logger) {
        if warned.exchange(true, ordering: .relaxed) {
            logger.debug("\(message)")
        } else {
            logger.warning("\(message)")
        }
    }
}
