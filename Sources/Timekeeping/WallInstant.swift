/// An instant on the wall clock (UTC, `CLOCK_REALTIME`): how far after the Unix epoch it lies.
///
/// Alarms live on this timeline; converting to the local reading a person sees is
/// `WallClockResolver`'s job. It does not count leap seconds, like the system clock.
public struct WallInstant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
    /// Time since 1970-01-01T00:00:00Z.
    public var sinceEpoch: Duration

    /// The instant `sinceEpoch` after the Unix epoch.
    public init(sinceEpoch: Duration) {
        self.sinceEpoch = sinceEpoch
    }

    /// The instant `seconds` after the Unix epoch (the form `time_t`, D-Bus and the CLI use).
    public init(secondsSinceEpoch seconds: Double) {
        sinceEpoch = .seconds(seconds)
    }

    /// Seconds since the Unix epoch, fractional.
    public var secondsSinceEpoch: Double { sinceEpoch.inSeconds }

    public func advanced(by duration: Duration) -> WallInstant { WallInstant(sinceEpoch: sinceEpoch + duration) }
    public func duration(to other: WallInstant) -> Duration { other.sinceEpoch - sinceEpoch }
    public static func < (lhs: WallInstant, rhs: WallInstant) -> Bool { lhs.sinceEpoch < rhs.sinceEpoch }

    /// Seconds since the epoch, for logs.
    public var description: String { "\(secondsSinceEpoch)s since the epoch" }
}

extension WallInstant: Codable {
    /// Seconds from the Unix epoch to 2001-01-01T00:00:00Z.
    static let referenceDateOffset: Double = 978_307_200

    /// Stored as seconds since 2001-01-01 (a plain number): the layout saved files had when this
    /// field was a Foundation `Date`, so alarms saved by earlier versions load unchanged.
    public init(from decoder: any Decoder) throws {
        let seconds = try decoder.singleValueContainer().decode(Double.self)
        self.init(secondsSinceEpoch: seconds + Self.referenceDateOffset)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(secondsSinceEpoch - Self.referenceDateOffset)
    }
}

extension WallInstant {
    /// The instant `rhs` later.
    public static func + (lhs: WallInstant, rhs: Duration) -> WallInstant { lhs.advanced(by: rhs) }
    /// The instant `rhs` earlier.
    public static func - (lhs: WallInstant, rhs: Duration) -> WallInstant { lhs.advanced(by: .zero - rhs) }
    /// How long after `rhs` `lhs` is (negative when before).
    public static func - (lhs: WallInstant, rhs: WallInstant) -> Duration { rhs.duration(to: lhs) }
}
