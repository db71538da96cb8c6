import FoundationEssentials
public import Timekeeping

/// A time of day on the wall clock, as the user means it (`07:30` is half past seven local time
/// whatever the offset from UTC is that day).
public struct WallClockTime: Codable, Sendable, Hashable, CustomStringConvertible {
    /// 0–23.
    public var hour: Int
    /// 0–59.
    public var minute: Int
    /// 0–59.
    public var second: Int

    /// A time of day; nil when out of range.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Seconds since midnight.
    public var secondsIntoDay: Int { hour * 3600 + minute * 60 + second }

    /// `07:30` or `07:30:15`.
    public var description: String {
        hour.padded(2) + ":" + minute.padded(2) + (second == 0 ? "" : ":" + second.padded(2))
    }
}

/// When an alarm is meant to ring, as given.
public enum AlarmTime: Codable, Sendable, Hashable {
    /// At a time of day (the next one, or per the repeat rule).
    case wallClock(WallClockTime)
    /// At one instant (`+10m`, or an ISO 8601 date-time).
    case instant(WallInstant)

    /// Why a time was rejected.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What was wrong, ready to show to the user.
        public let description: String
    }

    /// Reads `07:30`, `7:30pm`, `7pm`, `19:05:30`, `+10m`, `+90s`, `2026-11-22T07:30`,
    /// `2026-11-22 07:30:00`, `2026-11-22T07:30Z` or `…+01:00`. Relative times count from
    /// `now`; an ISO date-time without an offset is local time in `timeZone`.
    public static func parse(_ text: String, now: WallInstant, timeZone: any ZoneRules) throws(ParseError) -> AlarmTime {
        let trimmed = text.trimmingWhitespace
        if trimmed.hasPrefix("+") {
            do {
                return .instant(now + (try ClockDuration.parse(String(trimmed.dropFirst()))))
            } catch {
                throw ParseError(description: "\"\(text)\": \(error.description)")
            }
        }
        if let date = try parseISO(trimmed, timeZone: timeZone) { return .instant(date) }
        if let time = parseTimeOfDay(trimmed) { return .wallClock(time) }
        throw ParseError(description: "\"\(text)\" is not a time (try 07:30, 7:30pm, +10m or 2026-11-22T07:30)")
    }

    /// `H[:MM[:SS]]` with an optional `am`/`pm` (a bare hour needs am/pm).
    public static func parseTimeOfDay(_ text: String) -> WallClockTime? {
        var body = text.lowercased().replacing(" ", with: "")
        var meridiem: String?
        for suffix in ["am", "pm", "a", "p"] where body.hasSuffix(suffix) {
            meridiem = String(suffix.prefix(1))
            body.removeLast(suffix.count)
            break
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.count > 1 || meridiem != nil,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
            parts.dropFirst().allSatisfy({ $0.count == 2 })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else { return nil }
        var hour = numbers[0]
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "p" ? 12 : 0)
        }
        return WallClockTime(hour: hour, minute: numbers.count > 1 ? numbers[1] : 0, second: numbers.count > 2 ? numbers[2] : 0)
    }

    /// `YYYY-MM-DD(T| )HH:MM[:SS][Z|±HH[:]MM]`; nil when `text` does not look like a date at all,
    /// an error when it does but is invalid.
    public static func parseISO(_ text: String, timeZone: any ZoneRules) throws(ParseError) -> WallInstant? {
        let characters = Array(text)
        guard characters.count >= 16, characters[4] == "-", characters[7] == "-",
            characters[10] == "T" || characters[10] == "t" || characters[10] == " "
        else { return nil }
        let invalid = ParseError(description: "\"\(text)\" is not a valid ISO 8601 date-time")
        let date = String(characters[0..<10]).split(separator: "-").compactMap { Int($0) }
        var rest = String(characters[11...])
        var offset: Int?
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            offset = 0
            rest.removeLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = rest[rest.index(after: sign)...].replacing(":", with: "")
            guard zone.count == 4 || zone.count == 2, let value = Int(zone) else { throw invalid }
            let minutes = zone.count == 4 ? (value / 100) * 60 + value % 100 : value * 60
            offset = (rest[sign] == "-" ? -1 : 1) * minutes * 60
            rest = String(rest[..<sign])
        }
        if let dot = rest.firstIndex(of: ".") { rest = String(rest[..<dot]) }
        guard date.count == 3, let time = parseTimeOfDay(rest), rest.contains(":"),
            (1...12).contains(date[1]), (1...31).contains(date[2])
        else { throw invalid }
        let day = CivilDay(year: date[0], month: date[1], day: date[2])
        guard day.isValid else { throw invalid }
        let naive = day.naiveSeconds + Double(time.secondsIntoDay)
        if let offset { return WallInstant(secondsSinceEpoch: naive - Double(offset)) }
        return WallClockResolver(timeZone: timeZone).instant(forNaive: naive)
    }
}
