import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// One session that exercises playback and every interface and then quits cleanly, so the leak
/// checker runs at linnet's exit. `make check` runs it under AddressSanitizer and
/// ThreadSanitizer (see scripts/check-sanitizers.sh); in the normal suite it is a quick smoke test.
@Suite struct SanitizerScenarioTests {
    @Test(.timeLimit(.minutes(5))) func playbackAndEveryInterfaceThenQuit() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("s1.ogg", title: "Scenario One", seconds: 2)
        let b = try await world.makeTrack("s2.ogg", title: "Scenario Two", seconds: 2)
        let c = try await world.makeTrack("s3.ogg", title: "Scenario Three", seconds: 3)
        let broken = world.media.appendingPathComponent("broken.ogg")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: broken)
        try await world.start(["--no-resume", a, broken.path, b])
        let player = world.proxy(MPRISNames.player)
        let trackList = world.proxy(MPRISNames.trackList)

        try await world.waitUntil("the second good track after the broken one", timeout: .seconds(60)) {
            try await world.title() == "Scenario Two"
        }
        try await player.call("Seek", [.int64(500_000)])
        try await player.setProperty("Volume", to: .double(0.4))
        try await player.setProperty("Rate", to: .double(1.5))
        try await player.setProperty("Shuffle", to: .boolean(true))
        try await player.setProperty("LoopStatus", to: .string("Playlist"))
        let tracks = try await trackList.property("Tracks")
        _ = try await trackList.call("GetTracksMetadata", [tracks])
        try await trackList.call("AddTrack", [.string(URL(fileURLWithPath: c).absoluteString),
                                              .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"), .boolean(true)])
        try await world.waitUntil("the added track playing", timeout: .seconds(60)) { try await world.title() == "Scenario Three" }
        try await player.call("Pause")
        try await player.call("Next")
        try await player.call("Previous")
        try await player.call("PlayPause")
        let metadata = try await world.playerctl("metadata", "--format", "{{title}}")
        #expect(!metadata.output.isEmpty)
        _ = try await world.proxy(MPRISNames.playlists).allProperties()
        _ = try await world.proxy(MPRISNames.root).allProperties()
        _ = try? await player.call("NoSuchMethod")
        try await player.call("Stop")

        try await world.proxy(MPRISNames.root).call("Quit")
        let status = try await world.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "linnet exited with \(String(describing: status)):\n\(world.log.suffix(4000))")
    }
}
