@testable import PlayerCore
import PlayerTestKit
import Testing

/// Transport commands as value in, effects out: no bus, no engine, no clock.
@Suite struct PlayerMachineTransportTests {
    let uris = ["file:///m/a.ogg", "file:///m/b.ogg", "file:///m/c.ogg"]

    @Test func startLoadsTheFirstEntryPausedQueuesTheNextAndAsksForScans() {
        let fixture = MachineHarness(uris: uris)
        let commands = MachineHarness.engineCommands(fixture.log)
        #expect(commands.prefix(3) == [.setVolume(1), .setRate(1), .load(uris[0])])
        #expect(commands.contains(.pause))
        #expect(commands.last == .setNext(uris[1]))
        #expect(fixture.machine.transport == .paused)
        #expect(fixture.log.contains(.scan(fixture.machine.queue.entries)))
        guard case .publish(_, _, let trackList?) = fixture.log.first(where: { if case .publish = $0 { true } else { false } }) else {
            Issue.record("the start does not publish the whole track list")
            return
        }
        #expect(trackList == fixture.machine.queue.entries.map(\.id))
    }

    @Test func playPauseTogglesAndPausePublishesTheEnginePosition() {
        var fixture = MachineHarness(uris: uris)
        let play = fixture.command(.playPause)
        #expect(MachineHarness.engineCommands(play) == [.play])
        #expect(MachineHarness.lastSnapshot(play)?.transport == .playing)
        #expect(play.contains(.holdPlayback(true)))

        let pause = fixture.command(.playPause)
        #expect(MachineHarness.engineCommands(pause) == [.pause])
        #expect(pause.contains(.publish(fixture.machine.snapshot, position: .engineNow, trackList: nil)))
        #expect(pause.contains(.holdPlayback(false)))
        #expect(pause.contains(.saveSoon))
    }

    @Test func nextKeepsAPausedPlayerPausedAndStopReloadsOnPlay() {
        var fixture = MachineHarness(uris: uris)
        let next = fixture.command(.next)
        #expect(MachineHarness.engineCommands(next).prefix(2) == [.load(uris[1]), .pause])
        #expect(fixture.machine.transport == .paused)

        fixture.command(.stop)
        #expect(fixture.machine.transport == .stopped)
        let play = fixture.command(.play)
        #expect(MachineHarness.engineCommands(play).prefix(2) == [.load(uris[1]), .play])
    }

    @Test func aSeekWhileStoppedIsWhereTheNextPlayStarts() {
        var fixture = MachineHarness(uris: uris)
        fixture.command(.stop)
        let seek = fixture.command(.seek(to: .seconds(5)))
        #expect(MachineHarness.engineCommands(seek).isEmpty)
        #expect(seek == [.saveSoon])
        #expect(fixture.machine.positionWithoutEngine == .seconds(5))
        let play = fixture.command(.play)
        #expect(MachineHarness.engineCommands(play).contains(.seek(to: .seconds(5))))
        #expect(play.contains(.publish(fixture.machine.snapshot, position: .at(.seconds(5)), trackList: nil)))
    }

    @Test func positionAsksTheEngineOnlyWhenItMustAndRemembersItsLastAnswer() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        #expect(fixture.machine.positionWithoutEngine == nil)
        #expect(fixture.machine.position(engineAnswer: .milliseconds(1200)) == .milliseconds(1200))
        // Prerolling: the engine cannot answer and is not moving.
        #expect(fixture.machine.position(engineAnswer: nil) == .milliseconds(1200))
        fixture.command(.next)
        #expect(fixture.machine.position(engineAnswer: nil) == .zero)
    }

    @Test func volumeDuringASleepFadeKeepsTheFadeAndMixerMuteReadsZero() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let fade = fixture.send(.clock(.fade(level: 0.5)))
        #expect(MachineHarness.engineCommands(fade) == [.setVolume(0.5)])
        let volume = fixture.command(.setVolume(0.8))
        #expect(MachineHarness.engineCommands(volume) == [.setVolume(0.4)])
        let muted = fixture.send(.engine(.mixerVolume(0.8, muted: true)))
        #expect(MachineHarness.lastSnapshot(muted)?.volume == 0)
        let unmute = fixture.command(.setVolume(0.6))
        #expect(MachineHarness.engineCommands(unmute) == [.setVolume(0.3), .setMuted(false)])
        #expect(MachineHarness.lastSnapshot(unmute)?.volume == 0.6)
    }

    @Test func aFullQueueRefusesAddingAndChangesNothing() {
        var settings = PlayerMachine.Settings()
        settings.maximumQueueLength = 3
        var fixture = MachineHarness(uris: uris, settings: settings)
        let before = fixture.machine.queue
        let add = fixture.command(.add(NewTrack(uri: "file:///m/d.ogg"), after: nil, makeCurrent: false))
        #expect(add == [.refused(.queueFull(limit: 3))])
        #expect(fixture.machine.queue == before)
    }

    @Test func addAnnouncesWhereTheEntryWentAndScansOnlyIt() {
        var fixture = MachineHarness(uris: uris)
        let after = fixture.id(0)
        let add = fixture.command(.add(NewTrack(uri: "file:///m/new.ogg"), after: after, makeCurrent: false))
        let added = fixture.machine.queue.entries[1]
        #expect(added.uri == "file:///m/new.ogg")
        #expect(add.first == .scan([added]))
        #expect(add.contains(.tracksAdded([TrackItem(entry: added, facts: fixture.machine.tracks[added.id]!)], after: after, index: fixture.machine.queue.index(of: added.id)!)))
        #expect(add.contains(.engine(.setNext("file:///m/new.ogg"))))
    }

    @Test func removingTheCurrentEntryLoadsTheNextInTheSameTransport() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let first = fixture.id(0)
        let remove = fixture.command(.remove(entryID: first))
        #expect(remove.first == .trackRemoved(first, index: 0))
        #expect(MachineHarness.engineCommands(remove).prefix(2) == [.load(uris[1]), .play])
        #expect(fixture.machine.transport == .playing)
    }
}
