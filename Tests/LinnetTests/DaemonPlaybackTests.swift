import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// The real `linnet` binary on a private bus, playing generated media through GStreamer into a
/// clock-synced null sink, driven by playerctl and a D-Bus client.
@Suite(.serialized) struct DaemonPlaybackTests {
    @Test func playsFilesAndShowsTheirTags() async throws {
        let world = try LinnetWorld()
        // Long enough that the first track is still playing when the scan ends, however loaded
        // the machine (3 s tracks ran out under a full parallel suite).
        let a = try await world.makeTrack("a.ogg", title: "Alpha Song", artist: "Ann", seconds: 30)
        let b = try await world.makeTrack("b.ogg", title: "Beta Song", artist: "Bob", seconds: 30)
        try await world.start(["--no-resume", a, b])
        try await world.waitUntil("Playing") { try await world.player("PlaybackStatus") == .string("Playing") }
        try await world.waitForScannedQueue()
        let line = try await world.playerctl("metadata", "--format", "{{title}}|{{artist}}|{{mpris:trackid}}")
        #expect(line.output.hasPrefix("Alpha Song|Ann|'/org/linnet/track/"))
        try await world.waitUntil("a length") {
            if case .int64(let length)? = try await world.player("Metadata")["mpris:length"] { return length > 2_500_000 }
            return false
        }
        try await world.playerctl("next")
        #expect(try await world.title() == "Beta Song")
        try await world.playerctl("pause")
        #expect(try await world.playerctl("status").output == "Paused")
        try await world.playerctl("previous")
        #expect(try await world.title() == "Alpha Song")
        // Previous kept the paused player paused.
        #expect(try await world.playerctl("status").output == "Paused")
        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)
        #expect(try await !world.client.nameHasOwner(LinnetWorld.playerName))
    }

    @Test func playsThroughTheQueueAndStopsAtTheEnd() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("1.ogg", title: "One", seconds: 0.6)
        let b = try await world.makeTrack("2.ogg", title: "Two", seconds: 0.6)
        try await world.start(["--no-resume", a, b])
        try await world.waitUntil("the second track") { try await world.title() == "Two" }
        try await world.waitUntil("the end") { try await world.player("PlaybackStatus") == .string("Stopped") }
        world.kill()
    }

    @Test func nextAndPreviousAtBothEndsUnderEachLoopStatus() async throws {
        let world = try LinnetWorld()
        let paths = try await [
            world.makeTrack("x1.ogg", title: "First", seconds: 5),
            world.makeTrack("x2.ogg", title: "Second", seconds: 5),
        ]
        try await world.start(["--no-resume", "--paused"] + paths)
        try await world.waitForScannedQueue()
        let player = world.proxy(MPRISNames.player)
        // None: no wrap at either end.
        #expect(try await world.player("CanGoPrevious") == .boolean(false))
        try await player.call("Previous")
        #expect(try await world.title() == "First")
        try await player.call("Next")
        #expect(try await world.title() == "Second")
        #expect(try await world.player("CanGoNext") == .boolean(false))
        try await player.call("Next")
        #expect(try await world.title() == "Second")
        // Playlist: wraps both ways.
        try await world.playerctl("loop", "Playlist")
        #expect(try await world.player("CanGoNext") == .boolean(true))
        try await player.call("Next")
        #expect(try await world.title() == "First")
        try await player.call("Previous")
        #expect(try await world.title() == "Second")
        // Track: Next and Previous still move, without wrapping.
        try await world.playerctl("loop", "Track")
        try await player.call("Previous")
        #expect(try await world.title() == "First")
        try await player.call("Previous")
        #expect(try await world.title() == "First")
        #expect(try await world.playerctl("status").output == "Paused")
        world.kill()
    }

    @Test func shuffleVisitsEveryTrackOnce() async throws {
        let world = try LinnetWorld()
        var paths: [String] = []
        for index in 1...6 { paths.append(try await world.makeTrack("s\(index).ogg", title: "Song \(index)", seconds: 5)) }
        try await world.start(["--no-resume", "--paused", "--shuffle"] + paths)
        try await world.waitForScannedQueue()
        #expect(try await world.playerctl("shuffle").output == "On")
        var seen: [String] = [try await world.title() ?? ""]
        for _ in 1..<6 {
            try await world.proxy(MPRISNames.player).call("Next")
            seen.append(try await world.title() ?? "")
        }
        #expect(Set(seen) == Set((1...6).map { "Song \($0)" }), "visited \(seen)")
        world.kill()
    }

    @Test func seeksSendSeekedAndMovePosition() async throws {
        let world = try LinnetWorld()
        let path = try await world.makeTrack("long.ogg", title: "Long", seconds: 20)
        try await world.start(["--no-resume", "--paused", path])
        try await world.waitUntil("the length") { try await world.player("Metadata")["mpris:length"] != nil }
        try await world.playerctl("position", "8")
        try await world.playerctl("position", "2+")
        try await world.waitUntil("two Seeked signals") { world.signals(named: "Seeked").count >= 2 }
        #expect(world.signals(named: "Seeked").map(\.arguments) == [[.int64(8_000_000)], [.int64(10_000_000)]])
        try await world.waitUntil("the position") {
            if case .int64(let position) = try await world.player("Position") { return abs(position - 10_000_000) < 200_000 }
            return false
        }
        world.kill()
    }

    @Test func trackListEditsSignalAndGoToPlays() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("t1.ogg", title: "Tee One", seconds: 5)
        let b = try await world.makeTrack("t2.ogg", title: "Tee Two", seconds: 5)
        let c = try await world.makeTrack("t3.ogg", title: "Tee Three", seconds: 5)
        try await world.start(["--no-resume", "--paused", a, b])
        try await world.waitForScannedQueue()
        let trackList = world.proxy(MPRISNames.trackList)
        let tracks = try await trackList.property("Tracks").decode(as: [ObjectPath].self)
        #expect(tracks.count == 2)
        try await trackList.call("AddTrack", [.string(URL(fileURLWithPath: c).absoluteString), .objectPath(tracks[0]), .boolean(false)])
        let afterAdd = try await trackList.property("Tracks").decode(as: [ObjectPath].self)
        #expect(afterAdd.count == 3 && afterAdd[0] == tracks[0] && afterAdd[2] == tracks[1])
        try await trackList.call("RemoveTrack", [.objectPath(tracks[1])])
        try await world.waitForScannedQueue()
        try await trackList.call("GoTo", [.objectPath(afterAdd[1])])
        #expect(try await world.title() == "Tee Three")
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        try await world.waitUntil("signals") { world.signals(named: "TrackRemoved").count == 1 }
        #expect(world.signals(named: "TrackAdded").count == 1)
        do {
            try await trackList.call("AddTrack", [.string("file:///does/not/exist.ogg"), .objectPath(TrackID.noTrack.path), .boolean(false)])
            Issue.record("a missing file was queued")
        } catch {
            #expect(error.name == .invalidArgs)
        }
        world.kill()
    }

    @Test func corruptFileIsSkippedAndStaysListedWithItsError() async throws {
        let world = try LinnetWorld()
        let broken = world.media.appendingPathComponent("broken.ogg").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: broken))
        let good = try await world.makeTrack("good.ogg", title: "Good One", seconds: 3)
        try await world.start(["--no-resume", broken, good])
        try await world.waitUntil("the good track playing") {
            let title = try await world.title()
            let status = try await world.player("PlaybackStatus")
            return title == "Good One" && status == .string("Playing")
        }
        let tracks = try await world.proxy(MPRISNames.trackList).property("Tracks").decode(as: [ObjectPath].self)
        #expect(tracks.count == 2)
        let reply = try await world.proxy(MPRISNames.trackList).call("GetTracksMetadata", [.array(.objectPath, [.objectPath(tracks[0])])])
        guard case .array(_, let maps)? = reply.first, let first = maps.first else {
            Issue.record("no metadata for the broken track")
            return
        }
        #expect(first["linnet:error"] != nil)
        #expect(world.log.contains("skipping"))
        world.kill()
    }

    @Test func openUriQueuesAndPlays() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("o1.ogg", title: "Opened Before", seconds: 5)
        let b = try await world.makeTrack("o2.ogg", title: "Opened Now", seconds: 5)
        try await world.start(["--no-resume", "--paused", a])
        try await world.playerctl("open", URL(fileURLWithPath: b).absoluteString)
        try await world.waitForScannedQueue()
        #expect(try await world.title() == "Opened Now")
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        world.kill()
    }

    @Test func followSeesEveryTrackChange() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("f1.ogg", title: "Follow One", seconds: 0.8)
        let b = try await world.makeTrack("f2.ogg", title: "Follow Two", seconds: 0.8)
        let follow = try StreamingTool("playerctl", ["--player=linnet", "--follow", "metadata", "--format", "{{status}} {{title}}"],
                                       environment: world.environment)
        defer { follow.stop() }
        try await world.start(["--no-resume", a, b])
        #expect(await follow.waitForLine(within: .seconds(20)) { $0 == "Playing Follow One" })
        #expect(await follow.waitForLine(within: .seconds(20)) { $0 == "Playing Follow Two" })
        #expect(await follow.waitForLine(within: .seconds(20)) { $0.hasPrefix("Stopped") })
        world.kill()
    }

    /// The daemon queues the next track before the current one ends: what reaches the sink is
    /// exactly both files back to back, without a gap.
    @Test func consecutiveTracksArePlayedGapless() async throws {
        let world = try LinnetWorld()
        var paths: [String] = []
        for (name, buffers) in [("g1.wav", 30), ("g2.wav", 50)] {
            let location = world.media.appendingPathComponent(name).path
            let arguments = ["-q", "audiotestsrc", "num-buffers=\(buffers)", "samplesperbuffer=1000", "!",
                             "audio/x-raw,format=S16LE,rate=44100,channels=2", "!", "wavenc", "!", "filesink", "location=\(location)"]
            let result = try await offPool { try ExternalTool.run("gst-launch-1.0", arguments) }
            #expect(result.status == 0)
            paths.append(location)
        }
        let capture = world.home.appendingPathComponent("capture.raw").path
        let sink = "audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=44100,channels=2 ! filesink location=\(capture)"
        try await world.start(["--no-resume"] + paths, sink: sink)
        try await world.waitUntil("both tracks played") { try await world.player("PlaybackStatus") == .string("Stopped") }
        let bytes = (try FileManager.default.attributesOfItem(atPath: capture)[.size] as? Int) ?? -1
        // 80 000 frames of 4 bytes: any gap or overlap at the switch changes the count.
        #expect(bytes == 80_000 * 4, "captured \(bytes) bytes")
        world.kill()
    }

    @Test func lyricsAndArtComeFromFilesNextToTheTrack() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("sung.ogg", title: "Sung", seconds: 5)
        try "[ar:Someone]\n[00:01.00]First line\n[00:02.50]Second line\n".write(
            toFile: world.media.appendingPathComponent("sung.lrc").path, atomically: true, encoding: .utf8)
        let cover = world.media.appendingPathComponent("cover.png").path
        let made = try await offPool { try ExternalTool.run("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=8,height=8", "!", "pngenc", "!",
            "filesink", "location=\(cover)"]) }
        #expect(made.status == 0)
        try await world.start(["--no-resume", "--paused", track])
        // Tags may come from the engine first; the sidecar files are read by the scanner.
        try await world.waitUntil("lyrics and art") {
            let metadata = try await world.player("Metadata")
            return metadata["xesam:asText"] != nil && metadata["mpris:artUrl"] != nil
        }
        let metadata = try await world.player("Metadata")
        #expect(metadata["xesam:asText"] == .string("First line\nSecond line"))
        guard case .string(let art)? = metadata["mpris:artUrl"] else {
            Issue.record("no art: \(metadata)")
            return
        }
        #expect(art.hasPrefix("file://"))
        world.kill()
    }
}
