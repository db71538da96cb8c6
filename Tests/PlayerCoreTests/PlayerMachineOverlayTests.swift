@testable import PlayerCore
import PlayerTestKit
import Testing

/// The clock features own the transport while an alarm rings or a Pomodoro runs: the user's
/// commands become requests to the clock, and the clock's own music requests go past them.
@Suite struct PlayerMachineOverlayTests {
    let uris = ["file:///m/a.ogg", "file:///m/b.ogg"]
    let alarm = AlarmDisplay(id: 3, label: "Wake", soundURI: "file:///s/alarm.ogg")

    @Test func anAlarmPausesTheMusicShowsItselfAndResumesTheMusicWhenItEnds() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let ring = fixture.send(.clock(.alarmStarted(alarm)))
        #expect(MachineHarness.engineCommands(ring) == [.pause])
        let shown = MachineHarness.lastSnapshot(ring)
        #expect(shown?.alarm == alarm)
        #expect(shown?.transport == .paused)
        #expect(shown?.overlayOwnsTransport == true)

        let end = fixture.send(.clock(.alarmEnded))
        #expect(MachineHarness.engineCommands(end) == [.play])
        #expect(MachineHarness.lastSnapshot(end)?.alarm == nil)
        #expect(fixture.machine.transport == .playing)
    }

    @Test func transportCommandsAnswerARingingAlarmAndLeaveTheMusicAlone() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.send(.clock(.alarmStarted(alarm)))
        for (command, request) in [(PlayerCommand.stop, ClockRequest.dismissAlarm), (.pause, .dismissAlarm),
                                   (.playPause, .dismissAlarm), (.next, .snoozeAlarm)] {
            let effects = fixture.command(command)
            #expect(effects == [.clock(request)], "\(command)")
        }
        #expect(fixture.command(.play).isEmpty)
        #expect(fixture.machine.transport == .paused)
        #expect(fixture.machine.queue.current?.uri == uris[0])
    }

    @Test func musicPausedOnPurposeDuringAnAlarmStaysPausedAfterIt() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.send(.clock(.alarmStarted(alarm)))
        fixture.send(.clock(.pauseMusic))
        let end = fixture.send(.clock(.alarmEnded))
        #expect(MachineHarness.engineCommands(end).isEmpty)
        #expect(fixture.machine.transport == .paused)
    }

    @Test func aFocusBlockStartingWhileAnAlarmRingsPlaysWhenTheAlarmEnds() {
        var fixture = MachineHarness(uris: uris)
        fixture.send(.clock(.alarmStarted(alarm)))
        #expect(MachineHarness.engineCommands(fixture.send(.clock(.playMusic))).isEmpty)
        let end = fixture.send(.clock(.alarmEnded))
        #expect(MachineHarness.engineCommands(end) == [.play])
    }

    @Test func aPomodoroTakesPlayPauseAndLetsStopAndNextThrough() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let shown = fixture.send(.clock(.pomodoro(PomodoroDisplay(title: "Focus 1 of 4 · 25 min left"))))
        #expect(MachineHarness.lastSnapshot(shown)?.pomodoro?.title == "Focus 1 of 4 · 25 min left")
        #expect(fixture.command(.playPause) == [.clock(.togglePomodoro)])
        #expect(fixture.command(.pause) == [.clock(.setPomodoroPaused(true))])
        #expect(fixture.command(.play) == [.clock(.setPomodoroPaused(false))])
        let next = fixture.command(.next)
        #expect(MachineHarness.engineCommands(next).first == .load(uris[1]))
        fixture.command(.stop)
        #expect(fixture.machine.transport == .stopped)
        // The same display again publishes nothing.
        #expect(fixture.send(.clock(.pomodoro(PomodoroDisplay(title: "Focus 1 of 4 · 25 min left")))).isEmpty)
    }

    @Test func anAlarmOverAPomodoroAnswersFirstAndThePomodoroShowsAgainAfterIt() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.send(.clock(.pomodoro(PomodoroDisplay(title: "Focus"))))
        fixture.send(.clock(.alarmStarted(alarm)))
        #expect(fixture.command(.playPause) == [.clock(.dismissAlarm)])
        let end = fixture.send(.clock(.alarmEnded))
        #expect(MachineHarness.lastSnapshot(end)?.pomodoro?.title == "Focus")
        #expect(fixture.command(.playPause) == [.clock(.togglePomodoro)])
    }

    @Test func anotherPlayerTakingFocusPausesAndItsEndResumes() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let yield = fixture.send(.focus(.yield))
        #expect(MachineHarness.engineCommands(yield) == [.pause])
        let resume = fixture.send(.focus(.resume))
        #expect(MachineHarness.engineCommands(resume) == [.play])
        // A user's pause meanwhile is not undone by the other player stopping.
        fixture.send(.focus(.yield))
        fixture.command(.play)
        fixture.command(.pause)
        #expect(MachineHarness.engineCommands(fixture.send(.focus(.resume))).isEmpty)
    }

    @Test func afterShutdownNothingTakesFocusAgain() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let shutdown = fixture.send(.shutdown)
        #expect(shutdown == [.holdPlayback(false)])
        let play = fixture.command(.next)
        #expect(!play.contains(.holdPlayback(true)))
        #expect(fixture.send(.focus(.yield)).isEmpty)
    }
}
