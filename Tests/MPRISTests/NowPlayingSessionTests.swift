import DBus
import EventLoop
import MPRIS
import Testing
import TestSupport

/// The high-level facade, driven by playerctl like any desktop would.
@Suite struct NowPlayingSessionTests {
    final class World: @unchecked Sendable {
        let bus: PrivateBus
        let session: NowPlayingSession
        let received = Recorder<String>()
        let clientLoop = EventLoop(name: "nowplaying.client")
        let client: DBusConnection
        let signals = Recorder<DBusSignal>()
        let subscription: DBusSubscription

        init() throws {
            bus = try PrivateBus()
            session = try NowPlayingSession(
                name: "facade", identity: "Facade", supportedRates: 0.5...2,
                connection: DBusConnection(address: bus.address))
            client = try DBusConnection(address: bus.address, loop: clientLoop)
            let signals = self.signals
            subscription = try client.subscribe(MatchRule(path: MPRISNames.objectPath)) { signals.record($0) }
        }

        deinit {
            subscription.cancel()
            clientLoop.stop()
        }

        func playerctl(_ arguments: String...) throws -> ToolResult {
            try ExternalTool.run("playerctl", ["--player=facade"] + arguments, environment: bus.environment)
        }

        var player: DBusProxy {
            DBusProxy(connection: client, destination: "org.mpris.MediaPlayer2.facade", path: MPRISNames.objectPath,
                      interface: MPRISNames.player)
        }

        func settle() async throws {
            _ = try await client.call(destination: "org.mpris.MediaPlayer2.facade", path: MPRISNames.objectPath,
                                      interface: .peer, member: "Ping")
        }
    }

    @Test func infoBecomesMetadataAndCommandsReachHandlers() async throws {
        let world = try World()
        let session = world.session
        let received = world.received
        session.commands.togglePlayPause.addHandler {
            received.record("toggle")
            session.playbackState = session.playbackState == .playing ? .paused : .playing
        }
        session.commands.changePlaybackPosition.addHandler { received.record("position \($0)") }
        session.nowPlaying = NowPlayingInfo(title: "Facade Song", artists: ["Someone"], album: "Record",
                                            duration: .seconds(100), artworkFile: "/tmp/cover art.png", lyrics: "la la")
        try session.start()
        let line = try world.playerctl("metadata", "--format", "{{title}}|{{artist}}|{{album}}|{{mpris:length}}|{{mpris:artUrl}}|{{xesam:asText}}")
        #expect(line.output == "Facade Song|Someone|Record|100000000|file:///tmp/cover%20art.png|la la")
        #expect(try world.playerctl("play-pause").status == 0)
        #expect(try world.playerctl("status").output == "Playing")
        #expect(try world.playerctl("position", "30").status == 0)
        #expect(received.values == ["toggle", "position 30.0 seconds"])
        // Commands without handlers are disabled, so the desktop does not offer them.
        #expect(try await world.player.property("CanGoNext") == .boolean(false))
        #expect(try await world.player.property("CanSeek") == .boolean(true))
    }

    @Test func enablingACommandSignalsItsCapability() async throws {
        let world = try World()
        try world.session.start()
        try await world.settle()
        world.session.commands.nextTrack.addHandler {}
        try await world.settle()
        let changes = world.signals.values.filter { $0.member == "PropertiesChanged" }
        #expect(changes.last?.arguments[1]["CanGoNext"] == .boolean(true))
        world.session.commands.nextTrack.isEnabled = false
        #expect(try await world.player.property("CanGoNext") == .boolean(false))
    }

    @Test func elapsedTimeAndRateGivePositionAndJumpsGiveSeeked() async throws {
        let world = try World()
        let session = world.session
        session.nowPlaying = NowPlayingInfo(title: "Clock", duration: .seconds(600), elapsedTime: .seconds(10), rate: 2)
        session.playbackState = .paused
        try session.start()
        guard case .int64(let paused) = try await world.player.property("Position") else {
            Issue.record("Position is not x")
            return
        }
        #expect(paused == 10_000_000)
        #expect(try await world.player.property("Rate") == .double(2))
        // Setting the same item with an elapsed time far from where the clock says is a seek.
        session.nowPlaying?.elapsedTime = .seconds(300)
        try await world.settle()
        let seeked = world.signals.values.filter { $0.member == "Seeked" }
        // The item started at 10 s (part-way: one Seeked), then jumped to 300 s (another).
        #expect(seeked.map(\.arguments) == [[.int64(10_000_000)], [.int64(300_000_000)]])
        // Re-setting it where the clock already is, is not.
        session.nowPlaying?.artists = ["Added Later"]
        try await world.settle()
        #expect(world.signals.values.filter { $0.member == "Seeked" }.count == 2)
    }
}
