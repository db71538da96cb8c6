@testable import PlayerCore
import PlayerTestKit
import Testing

/// The engine's reports: gapless switches, failures, interruptions, route changes and tags.
@Suite struct PlayerMachineEngineTests {
    let uris = ["file:///m/a.ogg", "file:///m/b.ogg", "file:///m/c.ogg"]

    @Test func aGaplessSwitchAdvancesTheQueueAndHandsOverTheOneAfter() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.send(.engine(.aboutToFinish(handsOverNext: true)))
        let started = fixture.send(.engine(.trackStarted(uri: uris[1])))
        #expect(fixture.machine.queue.current?.uri == uris[1])
        #expect(MachineHarness.engineCommands(started) == [.setNext(uris[2])])
        #expect(started.contains(.publish(fixture.machine.snapshot, position: .at(.zero), trackList: nil)))
        #expect(!started.contains(.seeked(to: .zero)))
    }

    @Test func repeatOneRestartsWithASeekedSignal() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.command(.setRepeatMode(.track))
        fixture.send(.engine(.aboutToFinish(handsOverNext: true)))
        let started = fixture.send(.engine(.trackStarted(uri: uris[0])))
        #expect(started.last == .seeked(to: .zero))
        #expect(fixture.machine.queue.current?.uri == uris[0])
    }

    @Test func aResumedSessionSeeksThenAnnouncesWhereItStarted() {
        var machine = PlayerMachine(queueSeed: 1)
        var queue = PlayQueue(seed: 1)
        _ = queue.replaceAll(with: uris, startAt: 1)
        let start = machine.handle(.start(PlayerStartup(
            session: SavedSession(queue: queue, position: .seconds(42), volume: 0.5, rate: 1.5), autoplay: false)))
        #expect(MachineHarness.engineCommands(start).prefix(5) == [.setVolume(0.5), .setRate(1.5), .load(uris[1]), .pause,
                                                                   .seek(to: .seconds(42))])
        let started = machine.handle(.engine(.trackStarted(uri: uris[1])))
        #expect(started.last == .seeked(to: .seconds(42)))
        #expect(machine.handle(.engine(.trackStarted(uri: uris[1]))).isEmpty)
    }

    @Test func aBrokenLoadedTrackIsMarkedAndSkippedKeepingTheTransport() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let failed = fixture.send(.engine(.failed(EngineFailure(uri: uris[0], message: "Could not decode"))))
        #expect(fixture.machine.tracks[fixture.id(0)]?.failure == "Could not decode")
        #expect(MachineHarness.engineCommands(failed).prefix(2) == [.load(uris[1]), .play])
        #expect(failed.contains(.log(.warning, "skipping \(uris[0]): Could not decode")))
        // Its duplicate is the same failure: nothing new is marked or loaded twice.
        let duplicate = fixture.send(.engine(.failed(EngineFailure(uri: uris[0], message: "Internal data stream error"))))
        #expect(MachineHarness.engineCommands(duplicate).filter { if case .load = $0 { true } else { false } } == [.load(uris[1])])
    }

    @Test func aQueueOfOnlyBrokenFilesEndsStoppedInsteadOfSpinning() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        for (index, uri) in uris.enumerated() {
            fixture.send(.scanned(entryID: fixture.id(index), .unreadable("not audio: \(uri)")))
        }
        fixture.send(.engine(.failed(EngineFailure(uri: uris[0], message: "not audio"))))
        #expect(fixture.machine.transport == .stopped)
        let play = fixture.command(.play)
        #expect(fixture.machine.transport != .playing)
        #expect(!MachineHarness.engineCommands(play).contains(.play))
    }

    @Test func aBrokenQueuedNextIsWithdrawnAndTheCurrentPlaysOn() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let failed = fixture.send(.engine(.failed(EngineFailure(uri: uris[1], message: "bad", currentTrackContinues: true))))
        #expect(MachineHarness.engineCommands(failed) == [.setNext(nil)])
        #expect(fixture.machine.queue.current?.uri == uris[0])
        #expect(fixture.machine.transport == .playing)
        // The natural end then moves past the broken entry.
        let ended = fixture.send(.engine(.endOfStream))
        #expect(MachineHarness.engineCommands(ended).prefix(2) == [.load(uris[2]), .play])
    }

    @Test func aCallPausesAndItsEndResumesButNotAfterTheUserPaused() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        let call = fixture.send(.engine(.soundServer(.pause)))
        #expect(MachineHarness.engineCommands(call) == [.pause])
        // Focus and the inhibitor stay held through a call.
        #expect(!call.contains(.holdPlayback(false)))
        #expect(MachineHarness.engineCommands(fixture.send(.engine(.soundServer(.resume)))) == [.play])

        fixture.send(.engine(.soundServer(.pause)))
        fixture.command(.play)
        fixture.command(.pause)
        #expect(fixture.send(.engine(.soundServer(.resume))).isEmpty)
    }

    @Test func aLostRoutePausesUnlessToldToPlayOn() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        #expect(fixture.send(.engine(.routeChanged(lostRoute: false))).isEmpty)
        #expect(MachineHarness.engineCommands(fixture.send(.engine(.routeChanged(lostRoute: true)))) == [.pause])

        var settings = PlayerMachine.Settings()
        settings.pausesWhenRouteLost = false
        var keep = MachineHarness(uris: uris, autoplay: true, settings: settings)
        #expect(keep.send(.engine(.routeChanged(lostRoute: true))).isEmpty)
    }

    @Test func tagsForTheLoadedStreamRepublishOnlyWhenTheyChangeSomething() {
        let streams = ["http://radio.example/a.ogg", "http://radio.example/b.ogg", "http://radio.example/c.ogg"]
        var fixture = MachineHarness(uris: streams, autoplay: true)
        var tags = TrackTags()
        tags.title = "Song"
        let first = fixture.send(.engine(.tags(uri: streams[0], tags)))
        #expect(MachineHarness.lastSnapshot(first)?.current?.facts.tags.title == "Song")
        #expect(fixture.send(.engine(.tags(uri: streams[0], tags))).isEmpty)
        // Tags for a URI that is not loaded are late: ignored.
        #expect(fixture.send(.engine(.tags(uri: streams[2], tags))).isEmpty)
    }

    @Test func eachTrackIsAnnouncedOnceWhilePlaying() {
        var settings = PlayerMachine.Settings()
        settings.announcesTracks = true
        var fixture = MachineHarness(uris: uris, autoplay: true, settings: settings)
        let isAnnouncement = { (effect: PlayerEffect) in if case .announce = effect { true } else { false } }
        // Held until the file's tags are read: the bubble comes once, complete.
        #expect(!fixture.log.contains(where: isAnnouncement))
        var tags = TrackTags()
        tags.title = "A"
        #expect(fixture.send(.scanned(entryID: fixture.id(0), .read(tags, duration: .microseconds(1), sidecarLyrics: nil)))
            .filter(isAnnouncement).count == 1)
        #expect(fixture.command(.setRate(1.5)).allSatisfy { !isAnnouncement($0) })
        tags.title = "b"
        fixture.send(.scanned(entryID: fixture.id(1), .read(tags, duration: .microseconds(1), sidecarLyrics: nil)))
        let next = fixture.command(.next)
        #expect(next.contains { if case .announce(let a) = $0 { a.title == "b" && a.canGoBack } else { false } })
        #expect(next.filter(isAnnouncement).count == 1)
    }
}
