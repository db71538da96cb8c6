import ClockRules
import LinnetCore
import PlayerCore
import Testing
import Timekeeping

/// The clock features as they run in linnet (the real ClockService, its timers and its state),
/// with time moved by hand: each test plays out minutes or hours in a few calls, with no sleeps,
/// no bus and no dependence on how busy the machine is.
@Suite struct ClockManualTimeTests {
    private func tea() -> Alarm.Options {
        var options = Alarm.Options()
        options.label = "Tea"
        options.sound = "file:///sounds/tea.oga"
        options.ramp = .zero
        return options
    }

    @Test func anAlarmRingsWhenItsTimeComesAndStopsAtTheRingLimit() throws {
        let rig = try ClockRig()
        defer { rig.stop() }
        let alarm = try rig.service.addAlarm("+10m", options: tea())
        #expect(alarm.nextFire == rig.clock.wallNow + .seconds(600))
        #expect(rig.clock.pendingWakeUps == 1, "one wall timer, armed for the alarm")
        #expect(rig.inhibitor.held == ["alarm"], "due within the hour: the machine is kept awake")

        rig.clock.advance(by: .seconds(599))
        #expect(rig.events.isEmpty)
        #expect(rig.read { $0.ringingAlarm } == nil)
        rig.clock.advance(by: .seconds(1))
        #expect(rig.events == ["ringing \(alarm.id)"])
        #expect(rig.read { $0.ringingAlarm?.id } == alarm.id)
        #expect(rig.clockInputs == [.alarmStarted(AlarmDisplay(id: alarm.id, label: "Tea", soundURI: "file:///sounds/tea.oga"))])
        #expect(rig.sounds.commands.contains("load(file:///sounds/tea.oga)"))
        #expect(rig.notifier.summaries == ["Tea"])

        // Unanswered, it stops after the ring limit (10 minutes); a one-shot alarm is then done.
        rig.clock.advance(by: .seconds(599))
        #expect(rig.read { $0.ringingAlarm?.id } == alarm.id)
        rig.clock.advance(by: .seconds(1))
        #expect(rig.read { $0.ringingAlarm } == nil)
        #expect(rig.clockInputs.last == .alarmEnded)
        #expect(rig.read { $0.alarms }.isEmpty)
        #expect(rig.inhibitor.held.isEmpty)
        #expect(rig.clock.pendingWakeUps == 0, "nothing left to wake for")
    }

    @Test func aPomodoroFocusBlockEndsInABreakWithTheBell() throws {
        let rig = try ClockRig()
        defer { rig.stop() }
        var settings = Pomodoro.Settings()
        settings.cycles = 2
        try rig.read { try $0.startPomodoro(settings, music: [], bell: "file:///sounds/bell.oga") }
        #expect(rig.clockInputs == [.playMusic, .pomodoro(PomodoroDisplay(title: "Focus 1 of 2 · 25 min left"))])
        #expect(rig.events == ["pomodoro focus"])
        // The display shows whole minutes: the one wake-up armed is where 25 becomes 24.
        #expect(rig.clock.pendingWakeUps == 1)
        #expect(rig.clock.nextWakeUp == .origin + .seconds(60))
        rig.clock.advance(by: .seconds(60))
        #expect(rig.clockInputs.last == .pomodoro(PomodoroDisplay(title: "Focus 1 of 2 · 24 min left")))

        rig.clock.advance(by: .seconds(24 * 60 - 1))
        #expect(rig.read { $0.pomodoro?.phase } == .focus(1))
        rig.clock.advance(by: .seconds(1))
        #expect(rig.read { $0.pomodoro?.phase } == .shortBreak(1))
        #expect(rig.events == ["pomodoro focus", "pomodoro short-break"])
        #expect(rig.clockInputs.suffix(2) == [.pauseMusic, .pomodoro(PomodoroDisplay(title: "Short break · 5 min left"))])
        #expect(rig.sounds.commands.contains("load(file:///sounds/bell.oga)"))
        #expect(rig.notifier.summaries.last == "Focus 1 of 2 done — 5 minute break")
        #expect(rig.clock.pendingWakeUps == 1)

        // Paused, nothing is armed and time passing changes nothing.
        rig.read { $0.setPomodoroPaused(true) }
        #expect(rig.clock.pendingWakeUps == 0)
        rig.clock.advance(by: .seconds(3600))
        #expect(rig.read { $0.pomodoro?.phase } == .shortBreak(1))
        #expect(rig.read { $0.pomodoro?.remaining(at: rig.clock.now) } == .seconds(300))
    }

    @Test func theSleepTimerFadesStepByStepThenPausesAndRestoresTheVolume() throws {
        let rig = try ClockRig()
        defer { rig.stop() }
        try rig.read { try $0.setSleepTimer(duration: .seconds(60), fade: .seconds(2)) }
        #expect(rig.clockInputs == [.fade(level: 1)])
        #expect(rig.events == ["sleep changed"])
        // Until the fade starts there is nothing to do: one wake-up, at its start.
        #expect(rig.clock.nextWakeUp == .origin + .seconds(58))

        rig.clock.advance(by: .seconds(59))
        rig.clock.advance(by: .milliseconds(999))
        let levels = rig.clockInputs.compactMap { input -> Double? in
            if case .fade(let level) = input { return level }
            return nil
        }
        #expect(levels == [1, 1, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125], "a linear fade in quarter-second steps")
        #expect(!rig.clockInputs.contains(.pauseMusic))

        rig.clock.advance(by: .milliseconds(1))
        #expect(rig.clockInputs.suffix(2) == [.pauseMusic, .fade(level: 1)], "paused, then the volume is back for next time")
        #expect(rig.events == ["sleep changed", "sleep fired", "sleep changed"])
        #expect(rig.read { $0.sleepRemaining } == nil)
        #expect(rig.clock.pendingWakeUps == 0)
    }

    /// The alarm follows the wall clock, the sleep timer awake time: a suspend over the alarm's
    /// time reports it missed on waking, and leaves the sleep timer where it was.
    @Test func aSuspendMissesTheAlarmAndPausesTheSleepTimer() throws {
        let rig = try ClockRig()
        defer { rig.stop() }
        let alarm = try rig.service.addAlarm("+10m", options: tea())
        try rig.read { try $0.setSleepTimer(duration: .seconds(1800), fade: .zero) }
        rig.clock.sleepMachine(for: .seconds(7200))
        #expect(rig.events == ["sleep changed", "missed \(alarm.id)"])
        #expect(rig.notifier.summaries == ["Missed alarm: Tea"])
        #expect(rig.read { $0.sleepRemaining } == .seconds(1800))
        rig.clock.advance(by: .seconds(1800))
        #expect(rig.events.suffix(2) == ["sleep fired", "sleep changed"])
    }

    /// Someone sets the wall clock: the alarm is planned again on the new time and rings when
    /// that clock reaches it (a timer left armed on the old reading would never ring).
    @Test func anAlarmFollowsTheWallClockWhenItIsSet() throws {
        let rig = try ClockRig()
        defer { rig.stop() }
        // The rig's wall clock starts at 10:00 UTC.
        let alarm = try rig.service.addAlarm("11:00", options: tea())
        rig.clock.setWallClock(to: rig.clock.wallNow + .seconds(3570))
        #expect(rig.events.isEmpty)
        #expect(rig.clock.pendingWakeUps == 1, "re-armed on the new reading")
        rig.clock.advance(by: .seconds(30))
        #expect(rig.events == ["ringing \(alarm.id)"])
    }
}
