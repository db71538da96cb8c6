@testable import PlayerCore
import PlayerTestKit
import Testing

/// The route rule as the machine applies it (which changes lose the route is `RouteChange`'s
/// part, tested in PlaybackTests): a lost route pauses playing music, and music paused for a
/// while — an alarm, a call, another player — stays paused when that while ends.
@Suite struct PlayerMachineRouteTests {
    let uris = ["file:///m/a.ogg", "file:///m/b.ogg"]
    let alarm = AlarmDisplay(id: 1, label: "Wake", soundURI: "file:///s/alarm.ogg")

    @Test func aLostRoutePausesPlayingMusicAndAMoveDoesNot() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        #expect(fixture.send(.engine(.routeChanged(lostRoute: false))).isEmpty)
        let lost = fixture.send(.engine(.routeChanged(lostRoute: true)))
        #expect(MachineHarness.engineCommands(lost) == [.pause])
        #expect(MachineHarness.lastSnapshot(lost)?.transport == .paused)
        #expect(lost.contains(.holdPlayback(false)))
    }

    @Test func anUnplugDuringAnAlarmLeavesTheMusicPausedWhenItEnds() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.send(.clock(.alarmStarted(alarm)))
        let lost = fixture.send(.engine(.routeChanged(lostRoute: true)))
        #expect(MachineHarness.engineCommands(lost).isEmpty)
        let end = fixture.send(.clock(.alarmEnded))
        #expect(MachineHarness.engineCommands(end).isEmpty)
        #expect(fixture.machine.transport == .paused)
        #expect(MachineHarness.lastSnapshot(end)?.alarm == nil)
    }

    @Test func anUnplugDuringACallLeavesTheMusicPausedWhenItEndsAndGivesFocusBack() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let call = fixture.send(.engine(.soundServer(.pause)))
        #expect(!call.contains(.holdPlayback(false)))
        let lost = fixture.send(.engine(.routeChanged(lostRoute: true)))
        #expect(MachineHarness.engineCommands(lost).isEmpty)
        // No longer a call's pause: the other players linnet paused get theirs back.
        #expect(lost.contains(.holdPlayback(false)))
        #expect(MachineHarness.engineCommands(fixture.send(.engine(.soundServer(.resume)))).isEmpty)
        #expect(fixture.machine.transport == .paused)
    }

    @Test func anUnplugWhileGivingWayToAnotherPlayerLeavesTheMusicPausedWhenItStops() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.send(.focus(.yield))
        #expect(fixture.machine.transport == .paused)
        fixture.send(.engine(.routeChanged(lostRoute: true)))
        #expect(MachineHarness.engineCommands(fixture.send(.focus(.resume))).isEmpty)
        #expect(fixture.machine.transport == .paused)
    }

    @Test func withKeepTheMusicComesBackAfterTheAlarmAsBefore() {
        var settings = PlayerMachine.Settings()
        settings.pausesWhenRouteLost = false
        var fixture = MachineHarness(uris: uris, autoplay: true, settings: settings)
        fixture.send(.clock(.alarmStarted(alarm)))
        #expect(fixture.send(.engine(.routeChanged(lostRoute: true))).isEmpty)
        #expect(MachineHarness.engineCommands(fixture.send(.clock(.alarmEnded))) == [.play])
    }

    @Test func aLostRouteWhilePausedOnPurposeChangesNothing() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.command(.pause)
        #expect(fixture.send(.engine(.routeChanged(lostRoute: true))).isEmpty)
        #expect(MachineHarness.engineCommands(fixture.command(.play)) == [.play])
    }
}
