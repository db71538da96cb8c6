internal import CGLib
public import FoundationEssentials
import Glibc
import Synchronization

/// A one-shot timer on the wall clock (`CLOCK_REALTIME`), delivered on an ``EventLoop``.
///
/// Unlike ``EventLoop/timer(after:handler:)`` (monotonic, which stops while the machine is
/// suspended), it expires at a wall-clock instant: after a suspend it fires as soon as the
/// machine is back if its time passed meanwhile. When anyone sets the wall clock (NTP step, the
/// user, a time-zone-less clock change) the handler hears ``Event/clockChanged`` at once, so the
/// owner can re-plan; that is the kernel's `TFD_TIMER_CANCEL_ON_SET`, an event, not a poll.
public final class WallClockTimer: Sendable {
    /// What the handler is told.
    public enum Event: Sendable, Equatable {
        /// The armed instant was reached.
        case expired
        /// The wall clock was set; the timer is disarmed until ``arm(at:)`` is called again.
        case clockChanged
    }

    private let fd: Int32
    private let source = Mutex<EventSource?>(nil)
    private let loop: EventLoop

    /// Creates a disarmed timer calling `handler` on `loop`. Throws when the kernel refuses a
    /// timerfd (errno in the error).
    public init(loop: EventLoop = .shared, handler: @escaping @Sendable (Event) -> Void) throws {
        let fd = linnet_wall_timer_create()
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.fd = fd
        self.loop = loop
        let watch = loop.watch(fileDescriptor: fd, events: .readable) { _ in
            switch linnet_wall_timer_read(fd) {
            case 0: break
            case -1: handler(.clockChanged)
            case -2: break
            default: handler(.expired)
            }
            return .keep
        }
        source.withLock { $0 = watch }
    }

    deinit {
        source.withLock { $0?.cancel() }
        close(fd)
    }

    /// Arms the timer for `date` (a past date expires at once), or disarms it with nil, replacing
    /// any earlier arming. A disarmed timer still reports clock changes once armed again; to hear
    /// them while nothing is due, arm it far in the future.
    public func arm(at date: Date?) {
        guard let date else {
            _ = linnet_wall_timer_arm(fd, 0, 0)
            return
        }
        // 0 would disarm: the earliest representable instant stands for "already due".
        let seconds = max(1, date.timeIntervalSince1970)
        let whole = seconds.rounded(.down)
        _ = linnet_wall_timer_arm(fd, Int64(whole), Int((seconds - whole) * 1e9))
    }
}
