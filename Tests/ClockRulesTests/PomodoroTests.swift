@testable import ClockRules
import Foundation
import Testing

/// The Pomodoro state machine, driven with a manual clock.
@Suite struct PomodoroTests {
    var settings: Pomodoro.Settings {
        var settings = Pomodoro.Settings()
        settings.work = 1500
        settings.shortBreak = 300
        settings.longBreak = 900
        settings.cycles = 2
        return settings
    }

    @Test func runsFocusBreakFocusLongBreakThenEnds() {
        var (session, actions) = Pomodoro.start(settings, now: 0)
        #expect(actions.first == .playMusic)
        #expect(session.phase == .focus(1))
        #expect(session.advance(now: 1000).isEmpty, "not over yet")
        actions = session.advance(now: 1500)
        #expect(session.phase == .shortBreak(1))
        #expect(actions.contains(.pauseMusic) && actions.contains(.ringBell))
        #expect(actions.contains(.notify(summary: "Focus 1 of 2 done — 5 minute break", body: "Focus 2 of 2 starts after the break")))
        actions = session.advance(now: 1800)
        #expect(session.phase == .focus(2))
        #expect(actions.contains(.playMusic) && actions.contains(.ringBell))
        actions = session.advance(now: 3300)
        #expect(session.phase == .longBreak)
        #expect(actions.contains(.notify(summary: "Focus 2 of 2 done — 15 minute break", body: "Last block done: take a long break")))
        actions = session.advance(now: 4200)
        #expect(actions.contains(.finished) && actions.contains(.ringBell))
    }

    @Test func pausingFreezesTheTimeLeft() {
        var (session, _) = Pomodoro.start(settings, now: 0)
        #expect(session.pause(now: 100) == [.pauseMusic, .phaseChanged])
        #expect(session.remaining(at: 5000) == 1400)
        #expect(session.advance(now: 5000).isEmpty)
        #expect(session.nextWakeUp(after: 5000) == nil, "a paused Pomodoro never wakes")
        #expect(session.title(at: 5000) == "Paused — Focus 1 of 2 · 24 min left")
        #expect(session.resume(now: 5000) == [.playMusic, .phaseChanged])
        #expect(session.remaining(at: 5100) == 1300)
    }

    @Test func wakesOnlyAtMinuteBoundariesAndThePhaseEnd() {
        let (session, _) = Pomodoro.start(settings, now: 0)
        // 1500 s left shows "25 min"; it changes to 24 at 60 s in.
        #expect(session.nextWakeUp(after: 0) == 60)
        #expect(session.nextWakeUp(after: 60) == 120)
        #expect(session.nextWakeUp(after: 90) == 120)
        #expect(session.nextWakeUp(after: 1450) == 1500)
        #expect(session.title(at: 0) == "Focus 1 of 2 · 25 min left")
        #expect(session.title(at: 61) == "Focus 1 of 2 · 24 min left")
        var short = Pomodoro.Settings()
        short.work = 3
        #expect(Pomodoro.start(short, now: 0).0.nextWakeUp(after: 0) == 3)
        short.cycles = 0
        #expect(!short.isValid)
    }
}
