/// An instant on a monotonic clock that stops while the machine sleeps (`CLOCK_MONOTONIC`, Swift's
/// `SuspendingClock`): the timeline of the sleep timer and the Pomodoro, which measure time spent
/// awake, not the wall clock. The origin is arbitrary (boot, or a test's zero): only differences
/// between two readings of one clock mean anything.
public struct AwakeInstant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
    /// Time since the clock's origin.
    public var sinceOrigin: Duration

    /// The instant `sinceOrigin` after the clock's origin.
    public init(sinceOrigin: Duration) {
        self.sinceOrigin = sinceOrigin
    }

    /// The clock's origin (a test clock starts here).
    public static let origin = AwakeInstant(sinceOrigin: .zero)

    public func advanced(by duration: Duration) -> AwakeInstant { AwakeInstant(sinceOrigin: sinceOrigin + duration) }
    public func duration(to other: AwakeInstant) -> Duration { other.sinceOrigin - sinceOrigin }
    public static func < (lhs: AwakeInstant, rhs: AwakeInstant) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }

    /// Seconds since the origin, for logs.
    public var description: String { "\(sinceOrigin.inSeconds)s awake" }
}

extension AwakeInstant {
    /// The instant `rhs` later.
    public static func + (lhs: AwakeInstant, rhs: Duration) -> AwakeInstant { lhs.advanced(by: rhs) }
    /// The instant `rhs` earlier.
    public static func - (lhs: AwakeInstant, rhs: Duration) -> AwakeInstant { lhs.advanced(by: .zero - rhs) }
    /// How long after `rhs` `lhs` is (negative when before).
    public static func - (lhs: AwakeInstant, rhs: AwakeInstant) -> Duration { rhs.duration(to: lhs) }
}
