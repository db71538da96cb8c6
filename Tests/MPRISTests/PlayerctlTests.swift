import DBus
import MPRIS
import Testing
import TestSupport

/// Every playerctl command against the test player, checked on both sides: what playerctl
/// prints, and what the player was asked to do.
@Suite struct PlayerctlTests {
    @Test func statusPlayPausePlayPauseAndStop() async throws {
        let fixture = try MPRISFixture()
        #expect(try fixture.playerctl("status") == "Stopped")
        try fixture.playerctl("play")
        #expect(try fixture.playerctl("status") == "Playing")
        try fixture.playerctl("pause")
        #expect(try fixture.playerctl("status") == "Paused")
        try fixture.playerctl("play-pause")
        #expect(try fixture.playerctl("status") == "Playing")
        try fixture.playerctl("stop")
        #expect(try fixture.playerctl("status") == "Stopped")
        #expect(fixture.player.calls.values == ["Play", "Pause", "PlayPause", "Stop"])
    }

    @Test func nextAndPreviousChangeTheTrackAndKeepTheStatus() async throws {
        let fixture = try MPRISFixture()
        try fixture.playerctl("pause")
        try fixture.playerctl("next")
        #expect(try fixture.playerctl("metadata", "title") == "Song 2")
        #expect(try fixture.playerctl("status") == "Paused")
        try fixture.playerctl("previous")
        #expect(try fixture.playerctl("metadata", "title") == "Song 1")
        // At the start CanGoPrevious is false: playerctl refuses, and a direct call has no effect.
        let refused = try ExternalTool.run("playerctl", ["--player=test", "previous"], environment: fixture.environment)
        #expect(refused.status != 0)
        try await fixture.proxy(MPRISNames.player).call("Previous")
        #expect(try fixture.playerctl("metadata", "title") == "Song 1")
        #expect(fixture.player.calls.values == ["Pause", "Next", "Previous"])
    }

    @Test func metadataWithFormatAndTypes() throws {
        let fixture = try MPRISFixture()
        let line = try fixture.playerctl(
            "metadata", "--format", "{{title}}|{{artist}}|{{album}}|{{mpris:length}}|{{xesam:trackNumber}}|{{mpris:trackid}}")
        // playerctl quotes values of type `o`: the quotes prove mpris:trackid is an object path.
        #expect(line == "Song 1|Artist 1, Guest|Album|60000000|1|'/org/linnet/test/track/1'")
        let all = try fixture.playerctl("metadata")
        #expect(all.contains("xesam:genre") && all.contains("Jazz"))
        #expect(all.contains("xesam:url") && all.contains("file:///music/1.ogg"))
    }

    @Test func absoluteAndRelativePosition() async throws {
        let fixture = try MPRISFixture()
        // playerctl reports 0 for a stopped player, so seek in a paused one.
        try fixture.playerctl("pause")
        try fixture.playerctl("position", "10")
        #expect(fixture.player.calls.values.last == "Seek 10000000")
        #expect(try await fixture.proxy(MPRISNames.player).property("Position") == .int64(10_000_000))
        let position = try fixture.playerctl("position")
        #expect(position == "10.000000")
        try fixture.playerctl("position", "5+")
        #expect(fixture.player.calls.values.last == "Seek 15000000")
        try fixture.playerctl("position", "20-")
        // Seeking back past the start clamps to 0.
        #expect(fixture.player.calls.values.last == "Seek 0")
        try await fixture.settle()
        #expect(fixture.signals(named: "Seeked").map(\.arguments) == [[.int64(10_000_000)], [.int64(15_000_000)], [.int64(0)]])
        #expect(fixture.player.calls.values == ["Pause", "Seek 10000000", "Seek 15000000", "Seek 0"])
    }

    @Test func volumeLoopAndShuffle() throws {
        let fixture = try MPRISFixture()
        try fixture.playerctl("volume", "0.4")
        #expect(try fixture.playerctl("volume") == "0.400000")
        try fixture.playerctl("loop", "Track")
        #expect(try fixture.playerctl("loop") == "Track")
        try fixture.playerctl("shuffle", "On")
        #expect(try fixture.playerctl("shuffle") == "On")
        #expect(fixture.player.calls.values == ["Volume 0.4", "LoopStatus Track", "Shuffle true"])
    }

    @Test func openUsesOpenUri() throws {
        let fixture = try MPRISFixture()
        try fixture.playerctl("open", "file:///music/new.ogg")
        #expect(fixture.player.calls.values == ["OpenUri file:///music/new.ogg"])
    }

    @Test func followPrintsEveryChange() async throws {
        let fixture = try MPRISFixture()
        let follow = try StreamingTool("playerctl", ["--player=test", "--follow", "metadata", "--format", "{{status}} {{title}}"],
                                       environment: fixture.environment)
        defer { follow.stop() }
        #expect(await follow.waitForLine { $0 == "Stopped Song 1" })
        try fixture.playerctl("play")
        #expect(await follow.waitForLine { $0 == "Playing Song 1" })
        try fixture.playerctl("next")
        #expect(await follow.waitForLine { $0 == "Playing Song 2" })
    }

    @Test func playerctlListsThePlayer() throws {
        let fixture = try MPRISFixture()
        let result = try ExternalTool.run("playerctl", ["--list-all"], environment: fixture.environment)
        #expect(result.output == "test")
    }
}
