@testable import ClockRules
import Testing
import Timekeeping

/// The Pomodoro state machine, driven with a manual clock.
@Suite struct PomodoroTests {
    func awake(_ seconds: Int64) -> AwakeInstant { .origin + .seconds(seconds) }

    var settings: Pomodoro.Settings {
        var settings = Pomodoro.Settings()
        settings.work = .seconds(1500)
        settings.shortBreak = .seconds(300)
        settings.longBreak = .seconds(900)
        settings.cycles = 2
        return settings
    }

    @Test func runsFocusBreakFocusLongBreakThenEnds() {
        var (session, actions) = Pomodoro.start(settings, now: awake(0))
        #expect(actions.first == .playMusic)
        #expect(session.phase == .focus(1))
        #expect(session.advance(now: awake(1000)).isEmpty, "not over yet")
        actions = session.advance(now: awake(1500))
        #expect(session.phase == .shortBreak(1))
        #expect(actions.contains(.pauseMusic) && actions.contains(.ringBell))
        #expect(actions.contains(.notify(summary: "Focus 1 of 2 done — 5 minute break", body: "Focus 2 of 2 starts after the break")))
        actions = session.advance(now: awake(1800))
        #expect(session.phase == .focus(2))
        #expect(actions.contains(.playMusic) && actions.contains(.ringBell))
        actions = session.advance(now: awake(3300))
        #expect(session.phase == .longBreak)
        #expect(actions.contains(.notify(summary: "Focus 2 of 2 done — 15 minute break", body: "Last block done: take a long break")))
        actions = session.advance(now: awake(4200))
        #expect(actions.contains(.finished) && actions.contains(.ringBell))
    }

    @Test func pausingFreezesTheTimeLeft() {
        var (session, _) = Pomodoro.start(settings, now: awake(0))
        #expect(session.pause(now: awake(100)) == [.pauseMusic, .phaseChanged])
        #expect(session.remaining(at: awake(5000)) == .seconds(1400))
        #expect(session.advance(now: awake(5000)).isEmpty)
        #expect(session.nextWakeUp(after: awake(5000)) == nil, "a paused Pomodoro never wakes")
        #expect(session.title(at: awake(5000)) == "Paused — Focus 1 of 2 · 24 min left")
        #expect(session.resume(now: awake(5000)) == [.playMusic, .phaseChanged])
        #expect(session.remaining(at: awake(5100)) == .seconds(1300))
    }

    @Test func wakesOnlyAtMinuteBoundariesAndThePhaseEnd() {
        let (session, _) = Pomodoro.start(settings, now: awake(0))
        // 1500 s left shows "25 min"; it changes to 24 at 60 s in.
        #expect(session.nextWakeUp(after: awake(0)) == awake(60))
        #expect(session.nextWakeUp(after: awake(60)) == awake(120))
        #expect(session.nextWakeUp(after: awake(90)) == awake(120))
        #expect(session.nextWakeUp(after: awake(1450)) == awake(1500))
        #expect(session.title(at: awake(0)) == "Focus 1 of 2 · 25 min left")
        #expect(session.title(at: awake(61)) == "Focus 1 of 2 · 24 min left")
        var short = Pomodoro.Settings()
        short.work = .seconds(3)
        #expect(Pomodoro.start(short, now: awake(0)).0.nextWakeUp(after: awake(0)) == awake(3))
        short.cycles = 0
        #expect(!short.isValid)
    }
}
