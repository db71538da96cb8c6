public import FoundationEssentials
public import Timekeeping

/// A day of the proleptic Gregorian calendar, counted in "naive" seconds: the local wall-clock
/// reading expressed as if it were UTC, where every day is exactly 86 400 s long. Working in
/// naive seconds keeps the calendar arithmetic free of DST; only ``WallClockResolver`` maps a
/// naive reading to a real instant.
public struct CivilDay: Hashable {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Naive seconds at the start of the day.
    public var naiveSeconds: TimeInterval { TimeInterval(daysSinceEpoch) * 86_400 }

    /// Whether the date exists (no 31 February).
    public var isValid: Bool { CivilDay(daysSinceEpoch: daysSinceEpoch) == self }

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `days` after 1970-01-01 (civil_from_days).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}

/// Maps wall-clock readings in one time zone to instants, with linnet's DST rule:
///
/// **An alarm fires at the first instant at which the wall clock shows its time or later.**
/// - A time that does not exist that day (skipped by a spring-forward change, e.g. 02:30 when
///   clocks jump from 02:00 to 03:00) fires when the gap ends (03:00 by the new clock): the
///   first moment the clock reads past the requested time. It is never skipped.
/// - A time that exists twice (the repeated hour of a fall-back change) fires at its first
///   occurrence only, once that day.
public struct WallClockResolver: Sendable {
    /// The zone whose wall clock is meant.
    public let timeZone: any ZoneRules

    /// A resolver for `timeZone`.
    public init(timeZone: any ZoneRules) {
        self.timeZone = timeZone
    }

    /// The naive seconds (local reading as if UTC) of `instant`.
    public func naive(_ instant: WallInstant) -> TimeInterval {
        instant.secondsSinceEpoch + TimeInterval(timeZone.secondsFromGMT(at: instant))
    }

    /// The instant the wall clock first reads `naive` (or, inside a gap, the end of the gap).
    public func instant(forNaive naive: TimeInterval) -> WallInstant {
        // Offsets around the reading: a day either side covers any single transition.
        let before = timeZone.secondsFromGMT(at: WallInstant(secondsSinceEpoch: naive - 86_400))
        let after = timeZone.secondsFromGMT(at: WallInstant(secondsSinceEpoch: naive + 86_400))
        let candidates = Set([before, after]).map { offset in
            (offset, WallInstant(secondsSinceEpoch: naive - TimeInterval(offset)))
        }
        let valid = candidates.filter { timeZone.secondsFromGMT(at: $0.1) == $0.0 }.map(\.1)
        if let first = valid.min() { return first }
        // In a gap: the transition lies between the two interpretations; it is the gap's end.
        let earliest = WallInstant(secondsSinceEpoch: naive - TimeInterval(max(before, after)))
        return timeZone.nextOffsetChange(after: earliest)
            ?? WallInstant(secondsSinceEpoch: naive - TimeInterval(min(before, after)))
    }

    /// The first instant after `after` when `time` is due on a day `rule` allows, per the rule
    /// above. nil only when the rule allows no day at all.
    public func nextFire(of time: WallClockTime, rule: RepeatRule, after: WallInstant) -> WallInstant? {
        let today = Int((naive(after) / 86_400).rounded(.down))
        for offset in 0...8 {
            let day = today + offset
            guard rule.allows(weekday: Self.weekday(daysSinceEpoch: day)) else { continue }
            let candidate = instant(forNaive: TimeInterval(day) * 86_400 + TimeInterval(time.secondsIntoDay))
            // The first occurrence that day is the only one: a repeated hour does not ring twice.
            if candidate > after { return candidate }
        }
        return nil
    }

    /// 1 = Sunday … 7 = Saturday (Foundation's numbering); 1970-01-01 was a Thursday.
    public static func weekday(daysSinceEpoch days: Int) -> Int {
        ((days % 7 + 7 + 4) % 7) + 1
    }

    /// `HH:MM` of `instant` on this wall clock, preceded by its date (`2026-11-26 00:00`) unless
    /// it falls on the same local day as `now`: a bare `00:00` read late in the evening meant
    /// tomorrow with nothing to say so.
    public func describe(_ instant: WallInstant, relativeTo now: WallInstant) -> String {
        let local = naive(instant)
        let day = CivilDay(daysSinceEpoch: Int((local / 86_400).rounded(.down)))
        let today = CivilDay(daysSinceEpoch: Int((naive(now) / 86_400).rounded(.down)))
        let seconds = Int(local - day.naiveSeconds)
        let time = (seconds / 3600).padded(2) + ":" + ((seconds % 3600) / 60).padded(2)
            + (seconds % 60 == 0 ? "" : ":" + (seconds % 60).padded(2))
        if day == today { return time }
        return day.year.padded(4) + "-" + day.month.padded(2) + "-" + day.day.padded(2) + " " + time
    }
}

/// The wall clock's edge with Foundation, whose calendar and time-zone rules the resolver uses.
extension WallInstant {
    /// The instant `date` stands for.
    public init(_ date: Date) {
        self.init(secondsSinceEpoch: date.timeIntervalSince1970)
    }
}

extension Date {
    /// The date at `instant`.
    public init(_ instant: WallInstant) {
        self.init(timeIntervalSince1970: instant.secondsSinceEpoch)
    }
}
