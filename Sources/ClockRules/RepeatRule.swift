/// On which days an alarm repeats: never (``once``) or on a set of weekdays.
public struct RepeatRule: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Weekdays, 1 = Sunday … 7 = Saturday (Foundation's numbering); empty means once.
    public private(set) var weekdays: Set<Int>

    /// Rings once.
    public static let once = RepeatRule(weekdays: [])
    /// Every day.
    public static let daily = RepeatRule(weekdays: Set(1...7))
    /// Monday to Friday.
    public static let weekdays = RepeatRule(weekdays: Set(2...6))
    /// Saturday and Sunday.
    public static let weekends = RepeatRule(weekdays: [1, 7])

    private static let names = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]

    /// A rule for `weekdays` (1 = Sunday … 7 = Saturday; others are dropped).
    public init(weekdays: Set<Int>) {
        self.weekdays = weekdays.filter { (1...7).contains($0) }
    }

    /// Whether it repeats at all.
    public var repeats: Bool { !weekdays.isEmpty }

    /// Whether an alarm may ring on `weekday` (a one-shot alarm may ring on any day).
    public func allows(weekday: Int) -> Bool { weekdays.isEmpty || weekdays.contains(weekday) }

    /// Why a rule was rejected.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What was wrong, ready to show to the user.
        public let description: String
    }

    /// `once`/empty, `daily`, `weekdays`, `weekends`, or a comma-separated list of day names
    /// (`MON,TUE`, `mon,friday`; case and the full name do not matter).
    public static func parse(_ text: String) throws(ParseError) -> RepeatRule {
        let trimmed = text.trimmingWhitespace.lowercased()
        switch trimmed {
        case "", "once", "never", "none": return .once
        case "daily", "everyday", "every day": return .daily
        case "weekdays": return .weekdays
        case "weekends": return .weekends
        default: break
        }
        var days: Set<Int> = []
        for part in trimmed.split(separator: ",") {
            let name = part.trimmingWhitespace.uppercased()
            guard name.count >= 3, let index = names.firstIndex(of: String(name.prefix(3))),
                Self.fullNames[index].hasPrefix(name)
            else {
                throw ParseError(description: "\"\(text)\" is not a repeat rule (daily, weekdays, weekends or MON,TUE,…)")
            }
            days.insert(index + 1)
        }
        return RepeatRule(weekdays: days)
    }

    private static let fullNames = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"]

    /// `once`, `daily`, `weekdays`, `weekends` or `MON,WED`.
    public var description: String {
        switch self {
        case .once: "once"
        case .daily: "daily"
        case .weekdays: "weekdays"
        case .weekends: "weekends"
        default: [2, 3, 4, 5, 6, 7, 1].filter(weekdays.contains).map { Self.names[$0 - 1] }.joined(separator: ",")
        }
    }
}
