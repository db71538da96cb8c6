public import FoundationEssentials
public import Timekeeping

/// What the wall clock needs of a time zone: its offset from UTC at an instant, and the next
/// instant that offset changes (a DST transition, or a change of the zone's standard time).
///
/// The machine's zone is ``SystemTimeZone`` (the C library's rules); Foundation's `TimeZone`
/// conforms too, for a zone named explicitly (tests, `Europe/Berlin`).
public protocol ZoneRules: Sendable {
    /// Seconds east of UTC at `instant`.
    func secondsFromGMT(at instant: WallInstant) -> Int
    /// The first instant after `instant` whose offset differs from the one before it; nil when
    /// none is known ahead.
    func nextOffsetChange(after instant: WallInstant) -> WallInstant?
}

extension TimeZone: ZoneRules {
    public func secondsFromGMT(at instant: WallInstant) -> Int {
        secondsFromGMT(for: Date(instant))
    }

    public func nextOffsetChange(after instant: WallInstant) -> WallInstant? {
        nextDaylightSavingTimeTransition(after: Date(instant)).map(WallInstant.init)
    }
}
