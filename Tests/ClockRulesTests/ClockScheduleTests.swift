@testable import ClockRules
import Foundation
import Testing
import Timekeeping

/// Next fire times with an injected clock and time zone, across DST changes, and the alarm
/// book's rules (ring, miss, snooze, dismiss, cancel, persistence).
@Suite struct ClockScheduleTests {
    let berlin = WallClockResolver(timeZone: TimeZone(identifier: "Europe/Berlin")!)
    let newYork = WallClockResolver(timeZone: TimeZone(identifier: "America/New_York")!)

    func utc(_ text: String) -> WallInstant {
        let formatter = ISO8601DateFormatter()
        return WallInstant(formatter.date(from: text)!)
    }

    func time(_ hour: Int, _ minute: Int) -> WallClockTime { WallClockTime(hour: hour, minute: minute)! }

    /// Issue 17: a one-off alarm for tomorrow's 00:00, listed at 22:00, read as a bare `00:00`.
    @Test func alarmTimesCarryTheirDateUnlessTheyAreToday() {
        // 22:00 in Berlin on 25 November (21:00 UTC).
        let now = utc("2026-11-25T21:00:00Z")
        #expect(berlin.describe(utc("2026-11-25T22:30:00Z"), relativeTo: now) == "23:30")
        #expect(berlin.describe(utc("2026-11-25T23:00:00Z"), relativeTo: now) == "2026-11-26 00:00")
        #expect(berlin.describe(utc("2026-11-26T06:00:00Z"), relativeTo: now) == "2026-11-26 07:00")
        #expect(berlin.describe(utc("2026-11-25T05:00:00Z"), relativeTo: now) == "06:00", "earlier today: a missed alarm")
        #expect(berlin.describe(utc("2026-11-24T06:00:00Z"), relativeTo: now) == "2026-11-24 07:00")
    }

    @Test func aSkippedTimeRingsWhenTheGapEnds() {
        // 2026-03-29 in Berlin: 02:00 CET becomes 03:00 CEST (01:00 UTC); 02:30 does not exist.
        let fire = berlin.nextFire(of: time(2, 30), rule: .once, after: utc("2026-03-28T23:00:00Z"))
        #expect(fire == utc("2026-03-29T01:00:00Z"))
        // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT (07:00 UTC).
        #expect(newYork.nextFire(of: time(2, 15), rule: .daily, after: utc("2026-03-08T05:00:00Z")) == utc("2026-03-08T07:00:00Z"))
    }

    @Test func aRepeatedTimeRingsOnceAtItsFirstOccurrence() {
        // 2026-10-25 in Berlin: 03:00 CEST falls back to 02:00 CET at 01:00 UTC; 02:30 happens
        // at 00:30 UTC and again at 01:30 UTC.
        let first = berlin.nextFire(of: time(2, 30), rule: .daily, after: utc("2026-10-24T22:00:00Z"))
        #expect(first == utc("2026-10-25T00:30:00Z"))
        // Having rung, the next is tomorrow's, not the second 02:30 an hour later.
        let next = berlin.nextFire(of: time(2, 30), rule: .daily, after: first!)
        #expect(next == utc("2026-10-26T01:30:00Z"))
    }

    @Test func dailyAndWeekdayRulesKeepTheLocalTimeAcrossDST() {
        // 07:30 is 06:30 UTC in winter and 05:30 UTC in summer.
        let saturday = berlin.nextFire(of: time(7, 30), rule: .daily, after: utc("2026-03-27T07:00:00Z"))
        #expect(saturday == utc("2026-03-28T06:30:00Z"))
        #expect(berlin.nextFire(of: time(7, 30), rule: .daily, after: saturday!) == utc("2026-03-29T05:30:00Z"))
        // From Friday after the alarm: weekdays skips the weekend (and the change) to Monday.
        #expect(berlin.nextFire(of: time(7, 30), rule: .weekdays, after: utc("2026-03-27T07:00:00Z")) == utc("2026-03-30T05:30:00Z"))
        #expect(berlin.nextFire(of: time(7, 30), rule: .weekends, after: utc("2026-03-27T07:00:00Z")) == utc("2026-03-28T06:30:00Z"))
        // Autumn: back to 06:30 UTC from Monday 2026-10-26.
        #expect(berlin.nextFire(of: time(7, 30), rule: RepeatRule(weekdays: [2]), after: utc("2026-10-20T12:00:00Z")) == utc("2026-10-26T06:30:00Z"))
        // Once, later today; once, already past: tomorrow.
        #expect(berlin.nextFire(of: time(18, 0), rule: .once, after: utc("2026-11-22T10:00:00Z")) == utc("2026-11-22T17:00:00Z"))
        #expect(berlin.nextFire(of: time(9, 0), rule: .once, after: utc("2026-11-22T10:00:00Z")) == utc("2026-11-23T08:00:00Z"))
    }

    /// A second alarm due while the first rings waits for the ring's end (an event). Its past
    /// instant must not be the next deadline: a wall-clock timer armed in the past fires at once,
    /// and re-arming it kept the loop thread spinning for as long as the first alarm rang.
    @Test func anAlarmWaitingBehindARingingOneIsNoDeadline() throws {
        var book = AlarmBook()
        let now = utc("2026-11-22T10:00:00Z")
        var options = Alarm.Options()
        options.label = "First"
        let first = try book.add(.instant(now + .seconds(1)), options: options, now: now, resolver: berlin)
        options.label = "Second"
        let second = try book.add(.instant(now + .seconds(1)), options: options, now: now, resolver: berlin)
        options.label = "Later"
        let later = try book.add(.instant(now + .seconds(600)), options: options, now: now, resolver: berlin)
        let rung = book.fireDue(now: now + .seconds(1), resolver: berlin)
        #expect(rung.filter { if case .ring = $0 { true } else { false } }.count == 1)
        let waiting = book.ringing?.id == first.id ? second : first
        #expect(book.alarm(waiting.id)?.phase == .scheduled)
        #expect(book.nextDeadline(now: now + .seconds(2)) == later.nextFire)
        // Once the ring ends, the waiting alarm rings (it waited, so it is not missed).
        let ended = book.dismiss(book.ringing!.id, now: now + .seconds(30), resolver: berlin)
        #expect(ended.first == .silence(waiting.id == first.id ? second.id : first.id))
        let next = book.fireDue(now: now + .seconds(30), resolver: berlin)
        #expect(next.first == .ring(book.alarm(waiting.id)!))
    }

    @Test func dueAlarmsRingMissedOnesAreReported() throws {
        var book = AlarmBook()
        let now = utc("2026-11-22T10:00:00Z")
        var options = Alarm.Options()
        options.label = "Tea"
        let tea = try book.add(.instant(now + .seconds(2)), options: options, now: now, resolver: berlin)
        options.label = "Standup"
        options.repeatRule = .weekdays
        let standup = try book.add(.wallClock(time(9, 0)), options: options, now: now, resolver: berlin)
        #expect(standup.nextFire == utc("2026-11-23T08:00:00Z"))
        #expect(book.nextDeadline(now: now) == now + .seconds(2))
        #expect(book.fireDue(now: now + .seconds(1), resolver: berlin).isEmpty)
        let ringing = book.fireDue(now: now + .seconds(2.5), resolver: berlin)
        #expect(ringing.first == .ring(book.alarm(tea.id)!))
        #expect(book.ringing?.id == tea.id)
        // Snooze: silent, due again after the snooze time; Stop then retires the one-shot alarm.
        #expect(book.snooze(tea.id, now: now + .seconds(3)) == [.silence(tea.id), .save])
        #expect(book.alarm(tea.id)?.nextFire == now + .seconds(3) + options.snooze)
        #expect(book.alarm(tea.id)?.phase == .snoozed)
        _ = book.fireDue(now: now + .seconds(3) + options.snooze, resolver: berlin)
        #expect(book.dismiss(tea.id, now: now + .seconds(600), resolver: berlin) == [.silence(tea.id), .save])
        #expect(book.alarm(tea.id) == nil)
        // The machine slept through Monday's standup: reported once, moved to Tuesday, not rung.
        let actions = book.fireDue(now: utc("2026-11-23T11:00:00Z"), resolver: berlin)
        #expect(actions == [.missed(standup, due: utc("2026-11-23T08:00:00Z")), .save])
        #expect(book.alarm(standup.id)?.nextFire == utc("2026-11-24T08:00:00Z"))
        #expect(book.fireDue(now: utc("2026-11-23T11:00:01Z"), resolver: berlin).isEmpty)
    }

    @Test func anAlarmDueWhileAnotherRingsRingsAfterItInsteadOfBeingMissed() throws {
        var book = AlarmBook()
        let now = utc("2026-11-22T07:00:00Z")
        let first = try book.add(.instant(now + .seconds(60)), options: Alarm.Options(), now: now, resolver: berlin)
        let second = try book.add(.instant(now + .seconds(120)), options: Alarm.Options(), now: now, resolver: berlin)
        #expect(book.fireDue(now: now + .seconds(60), resolver: berlin).first == .ring(book.alarm(first.id)!))
        // The second comes due while the first rings: it waits.
        #expect(book.fireDue(now: now + .seconds(125), resolver: berlin).isEmpty)
        // The first rang unanswered for ten minutes; the second rings next, not reported missed.
        _ = book.dismiss(first.id, now: now + .seconds(660), resolver: berlin)
        #expect(book.fireDue(now: now + .seconds(660), resolver: berlin).first == .ring(book.alarm(second.id)!))
        _ = book.dismiss(second.id, now: now + .seconds(700), resolver: berlin)
        // Later alarms are judged on their own lateness again.
        let third = try book.add(.instant(now + .seconds(800)), options: Alarm.Options(), now: now + .seconds(700), resolver: berlin)
        _ = book.fireDue(now: now + .seconds(700), resolver: berlin)
        #expect(book.fireDue(now: now + .seconds(5000), resolver: berlin).first == .missed(third, due: now + .seconds(800)))
    }

    @Test func refusalsAndCancelling() throws {
        var book = AlarmBook()
        let now = utc("2026-11-22T10:00:00Z")
        var options = Alarm.Options()
        #expect(throws: AlarmError.self) { try book.add(.instant(now - .seconds(60)), options: options, now: now, resolver: berlin) }
        options.repeatRule = .daily
        #expect(throws: AlarmError.self) { try book.add(.instant(now + .seconds(60)), options: options, now: now, resolver: berlin) }
        options.repeatRule = .once
        options.snooze = .zero
        #expect(throws: AlarmError.self) { try book.add(.instant(now + .seconds(60)), options: options, now: now, resolver: berlin) }
        options.snooze = .seconds(60)
        let alarm = try book.add(.instant(now + .seconds(60)), options: options, now: now, resolver: berlin)
        #expect(alarm.label == "Alarm")
        #expect(throws: AlarmError.self) { try book.cancel(alarm.id + 1, now: now) }
        #expect(try book.cancel(alarm.id, now: now) == [.save])
        #expect(book.alarms.isEmpty)
        // Ids are not reused after a cancel.
        #expect(try book.add(.instant(now + .seconds(60)), options: options, now: now, resolver: berlin).id == alarm.id + 1)
    }

    @Test func aRingingAlarmSurvivesARestartAsDue() throws {
        var book = AlarmBook()
        let now = utc("2026-11-22T10:00:00Z")
        let alarm = try book.add(.wallClock(time(11, 30)), options: Alarm.Options(), now: now, resolver: berlin)
        _ = book.fireDue(now: alarm.nextFire, resolver: berlin)
        let data = try JSONEncoder().encode(book)
        var restored = try JSONDecoder().decode(AlarmBook.self, from: data)
        #expect(restored == book)
        restored.recoverAfterRestart()
        #expect(restored.ringing == nil)
        // Back within the grace period: it rings; hours later it would be reported instead.
        #expect(restored.fireDue(now: alarm.nextFire + .seconds(10), resolver: berlin).first == .ring(restored.alarm(alarm.id)!))
    }

    /// alarms.json written before the core had its own time type (Foundation's `Date`, seconds
    /// as `TimeInterval`) loads unchanged, and what is written now reads back the old way.
    @Test func alarmsKeepTheirSavedLayout() throws {
        struct DateEraAlarm: Codable, Equatable {
            var id: UInt32
            var label: String
            var time: DateEraTime
            var repeatRule: RepeatRule
            var ramp: TimeInterval
            var snooze: TimeInterval
            var nextFire: Date
            var phase: String
        }
        enum DateEraTime: Codable, Equatable { case instant(Date) }
        let fire = Date(timeIntervalSince1970: 1_795_345_200.5)
        let old = DateEraAlarm(id: 3, label: "Tea", time: .instant(fire), repeatRule: .once, ramp: 12.5, snooze: 300,
                               nextFire: fire, phase: "snoozed")
        let alarm = try JSONDecoder().decode(Alarm.self, from: JSONEncoder().encode(old))
        #expect(alarm.nextFire == WallInstant(fire))
        #expect(alarm.time == .instant(WallInstant(fire)))
        #expect(alarm.ramp == .milliseconds(12_500))
        #expect(alarm.snooze == .seconds(300))
        #expect(alarm.phase == .snoozed)
        #expect(try JSONDecoder().decode(DateEraAlarm.self, from: JSONEncoder().encode(alarm)) == old)
    }

    @Test func rearmingFollowsANewTimeZone() throws {
        var book = AlarmBook()
        let now = utc("2026-11-22T10:00:00Z")
        let alarm = try book.add(.wallClock(time(18, 0)), options: Alarm.Options(), now: now, resolver: berlin)
        #expect(alarm.nextFire == utc("2026-11-22T17:00:00Z"))
        #expect(book.rearm(now: now, resolver: newYork) == [.save])
        #expect(book.alarm(alarm.id)?.nextFire == utc("2026-11-22T23:00:00Z"))
        #expect(book.rearm(now: now, resolver: newYork).isEmpty)
    }

    @Test func sleepTimerFadesLinearlyThenStops() {
        func awake(_ seconds: Double) -> AwakeInstant { .origin + .seconds(seconds) }
        let timer = SleepTimer(duration: .seconds(10), fade: .seconds(4), now: awake(100))
        #expect(timer.level(at: awake(100)) == 1)
        #expect(timer.level(at: awake(106)) == 1)
        #expect(timer.level(at: awake(108)) == 0.5)
        #expect(timer.level(at: awake(110)) == 0)
        #expect(timer.remaining(at: awake(103)) == .seconds(7))
        #expect(timer.nextWakeUp(after: awake(100), step: .milliseconds(250)) == awake(106))
        #expect(timer.nextWakeUp(after: awake(107), step: .milliseconds(250)) == awake(107.25))
        #expect(timer.nextWakeUp(after: awake(109.9), step: .milliseconds(250)) == awake(110))
        #expect(timer.nextWakeUp(after: awake(110), step: .milliseconds(250)) == nil)
        // A fade longer than the timer starts at once.
        #expect(SleepTimer(duration: .seconds(2), fade: .seconds(30), now: .origin).fade == .seconds(2))
    }
}
