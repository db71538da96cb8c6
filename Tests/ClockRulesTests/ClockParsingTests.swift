@testable import ClockRules
import Foundation
import Testing
import Timekeeping

/// Durations, times and repeat rules as users type them.
@Suite struct ClockParsingTests {
    let utc = TimeZone(identifier: "UTC")!
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-11-22T10:00:00Z, a Sunday.
    let now = WallInstant(secondsSinceEpoch: 1_795_341_600)

    @Test func durationsInEveryForm() throws {
        #expect(try ClockDuration.parse("25m") == .seconds(1500))
        #expect(try ClockDuration.parse("90s") == .seconds(90))
        #expect(try ClockDuration.parse("1h30m") == .seconds(5400))
        #expect(try ClockDuration.parse("1h30m15s") == .seconds(5415))
        #expect(try ClockDuration.parse("2H") == .seconds(7200))
        #expect(try ClockDuration.parse("1.5s") == .seconds(1.5))
        #expect(try ClockDuration.parse("45") == .seconds(45))
        #expect(try ClockDuration.parse("0s", allowZero: true) == .seconds(0))
        #expect(try ClockDuration.parse("0", allowZero: true) == .seconds(0))
        for bad in ["", "0", "0s", "-5m", "m", "5x", "30m1h", "5m5m", "10", "1e400", "400d", "5 m"] where bad != "10" {
            #expect(throws: ClockDuration.ParseError.self, "\(bad)") { try ClockDuration.parse(bad) }
        }
        #expect(ClockDuration.spoken(.seconds(300)) == "5 minute")
        #expect(ClockDuration.spoken(.seconds(2)) == "2 second")
        #expect(ClockDuration.spoken(.seconds(5400)) == "1 hour 30 minute")
        #expect(ClockDuration.clock(.seconds(65)) == "1:05")
        #expect(ClockDuration.clock(.seconds(3725)) == "1:02:05")
    }

    @Test func timesOfDay() throws {
        func clock(_ text: String) throws -> WallClockTime? {
            if case .wallClock(let time) = try AlarmTime.parse(text, now: now, timeZone: utc) { return time }
            return nil
        }
        #expect(try clock("07:30") == WallClockTime(hour: 7, minute: 30))
        #expect(try clock("7:30") == WallClockTime(hour: 7, minute: 30))
        #expect(try clock("7:30pm") == WallClockTime(hour: 19, minute: 30))
        #expect(try clock("7:30 PM") == WallClockTime(hour: 19, minute: 30))
        #expect(try clock("12am") == WallClockTime(hour: 0, minute: 0))
        #expect(try clock("12:15pm") == WallClockTime(hour: 12, minute: 15))
        #expect(try clock("7pm") == WallClockTime(hour: 19, minute: 0))
        #expect(try clock("23:59:30") == WallClockTime(hour: 23, minute: 59, second: 30))
        for bad in ["25:00", "7:60", "13pm", "7", "7:5", "", "noon", "0pm", "7:30xm", "+", "+0s", "+5q"] {
            #expect(throws: AlarmTime.ParseError.self, "\(bad)") { try AlarmTime.parse(bad, now: now, timeZone: utc) }
        }
    }

    @Test func relativeAndISOTimes() throws {
        #expect(try AlarmTime.parse("+10m", now: now, timeZone: utc) == .instant(now + .seconds(600)))
        #expect(try AlarmTime.parse("+90s", now: now, timeZone: utc) == .instant(now + .seconds(90)))
        #expect(try AlarmTime.parse("2026-11-22T10:30:00Z", now: now, timeZone: berlin) == .instant(now + .seconds(1800)))
        #expect(try AlarmTime.parse("2026-11-22T11:30+01:00", now: now, timeZone: utc) == .instant(now + .seconds(1800)))
        #expect(try AlarmTime.parse("2026-11-22T05:30-0500", now: now, timeZone: utc) == .instant(now + .seconds(1800)))
        // No offset: local time in the given zone (CET in November, UTC+1).
        #expect(try AlarmTime.parse("2026-11-22 11:30", now: now, timeZone: berlin) == .instant(now + .seconds(1800)))
        for bad in ["2026-02-30T07:00", "2026-13-01T07:00", "2026-11-22T25:00", "2026-11-22Tfoo"] {
            #expect(throws: AlarmTime.ParseError.self, "\(bad)") { try AlarmTime.parse(bad, now: now, timeZone: utc) }
        }
    }

    @Test func repeatRules() throws {
        #expect(try RepeatRule.parse("daily") == .daily)
        #expect(try RepeatRule.parse("Weekdays") == .weekdays)
        #expect(try RepeatRule.parse("weekends") == .weekends)
        #expect(try RepeatRule.parse("MON,wed,Friday") == RepeatRule(weekdays: [2, 4, 6]))
        #expect(try RepeatRule.parse("once") == .once)
        #expect(RepeatRule(weekdays: [2, 4, 6]).description == "MON,WED,FRI")
        #expect(RepeatRule(weekdays: [1, 2]).description == "MON,SUN")
        #expect(RepeatRule.weekdays.description == "weekdays")
        for bad in ["MO", "funday", "MON;TUE", "mondays"] {
            #expect(throws: RepeatRule.ParseError.self, "\(bad)") { try RepeatRule.parse(bad) }
        }
    }
}
