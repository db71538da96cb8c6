import FoundationEssentials

/// Durations as people type them: `25m`, `90s`, `1h30m`, `1.5s`, `2h`, or a bare number of
/// seconds. Used by the CLI and checked again by the daemon.
public enum ClockDuration {
    /// Why a duration was rejected.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What was wrong, ready to show to the user.
        public let description: String
    }

    /// The longest duration accepted anywhere (a year): longer is a typo.
    public static let maximum: Duration = .seconds(366 * 86_400)

    /// The span `text` names. Each unit (h, m, s) may appear once, in that order; a bare number is
    /// seconds. Negative durations are rejected, and zero unless `allowZero` (a ramp or fade of
    /// nothing is fine, a timer of nothing is not).
    public static func parse(_ text: String, allowZero: Bool = false) throws(ParseError) -> Duration {
        let trimmed = text.trimmingWhitespace.lowercased()
        guard !trimmed.isEmpty else { throw ParseError(description: "empty duration") }
        if let seconds = Double(trimmed) {
            return try checked(seconds, text, allowZero: allowZero)
        }
        var total: Double = 0
        var number = ""
        var lastUnit = -1
        let units: [Character: (rank: Int, seconds: Double)] = ["h": (0, 3600), "m": (1, 60), "s": (2, 1)]
        for character in trimmed {
            if character.isNumber || character == "." {
                number.append(character)
            } else if let unit = units[character] {
                guard let value = Double(number), unit.rank > lastUnit else {
                    throw ParseError(description: "\"\(text)\" is not a duration (try 25m, 90s or 1h30m)")
                }
                total += value * unit.seconds
                lastUnit = unit.rank
                number = ""
            } else {
                throw ParseError(description: "\"\(text)\" is not a duration (try 25m, 90s or 1h30m)")
            }
        }
        guard number.isEmpty else {
            throw ParseError(description: "\"\(text)\" needs a unit after \(number) (h, m or s)")
        }
        return try checked(total, text, allowZero: allowZero)
    }

    private static func checked(_ seconds: Double, _ text: String, allowZero: Bool) throws(ParseError) -> Duration {
        guard seconds.isFinite, seconds > 0 || (allowZero && seconds == 0) else {
            throw ParseError(description: "\"\(text)\" must be longer than zero")
        }
        guard seconds <= maximum.inSeconds else { throw ParseError(description: "\"\(text)\" is longer than a year") }
        return .seconds(seconds)
    }

    /// A short human form: `25 minute`, `90 second`, `1 hour 30 minute` (singular, as in "a
    /// 5 minute break").
    public static func spoken(_ span: Duration) -> String {
        let whole = Int(span.inSeconds.rounded())
        if whole < 60 || whole % 60 != 0 && whole < 600 { return "\(whole) second" }
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        switch (hours, minutes) {
        case (0, let m): return "\(m) minute"
        case (let h, 0): return "\(h) hour"
        case (let h, let m): return "\(h) hour \(m) minute"
        }
    }

    /// `mm:ss` or `h:mm:ss`, for status lines.
    public static func clock(_ span: Duration) -> String {
        let whole = max(0, Int(span.inSeconds.rounded(.up)))
        let (h, m, s) = (whole / 3600, (whole % 3600) / 60, whole % 60)
        return h > 0 ? "\(h):" + m.padded(2) + ":" + s.padded(2) : "\(m):" + s.padded(2)
    }
}
