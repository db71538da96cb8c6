import DBus
import Foundation
import LibraryCache
import Logging
import MPRIS
import Playback
import Testing
import TestSupport

/// The music folders as linnet watches them, seen from outside: a folder moved in whole is
/// read and watched, a folder moved away is let go, and what a re-read no longer finds (a
/// deleted cover, a stripped tag) leaves the queue and Metadata at once.
@Suite struct FolderWatchDaemonTests {
    /// An Ogg/Vorbis file at `path` with `tags` (gst-launch taginject syntax, spaces escaped),
    /// or none. Written beside and renamed into place when `atomically` (as editors save), so a
    /// loaded file's engine keeps reading the old one.
    private static func writeTrack(_ path: String, tags: String?, atomically: Bool = false) async throws {
        let target = atomically ? (path as NSString).deletingLastPathComponent + "/.writing.ogg" : path
        var pipeline = ["-q", "audiotestsrc", "num-buffers=43", "!", "audio/x-raw,rate=44100", "!", "audioconvert", "!"]
        if let tags { pipeline += ["taginject", "tags=\(tags)", "!"] }
        pipeline += ["vorbisenc", "!", "oggmux", "!", "filesink", "location=\(target)"]
        let arguments = pipeline
        let made = try await offPool { try ExternalTool.run("gst-launch-1.0", arguments) }
        guard made.status == 0 else { throw TestSupportError("gst-launch failed: \(made.stderr)") }
        if atomically, rename(target, path) != 0 { throw TestSupportError("rename: errno \(errno)") }
    }

    private static func titled(_ title: String) -> String {
        #"title="\#(title.replacingOccurrences(of: " ", with: #"\ "#))",artist="Tester""#
    }

    /// The Player Metadata values linnet signalled after the first `skipping` signals.
    private func metadataChanges(_ world: LinnetWorld, after skipping: Int) async throws -> [DBusValue] {
        // A round trip: every signal sent before it has arrived.
        _ = try await world.player("PlaybackStatus")
        let owner = try await world.client.nameOwner(LinnetWorld.playerName)
        return world.signals.values.dropFirst(skipping).compactMap { signal in
            guard signal.sender == owner, signal.member == "PropertiesChanged", signal.arguments.count > 1,
                  signal.arguments[0] == .string(MPRISNames.player.rawValue) else { return nil }
            return signal.arguments[1]["Metadata"]
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func aFolderMovedOutAndBackInWhole_isReadAgainAndWatchedUnderItsName() async throws {
        let world = try LinnetWorld()
        let album = world.media.appendingPathComponent("album")
        let disc = album.appendingPathComponent("disc")
        try FileManager.default.createDirectory(at: disc, withIntermediateDirectories: true)
        let one = try await world.makeTrack("1.ogg", title: "One", trackNumber: 1)
        try await Self.writeTrack(album.path + "/2.ogg", tags: Self.titled("Two"))
        try await Self.writeTrack(disc.path + "/3.ogg", tags: Self.titled("Three"))
        try await world.start(["--no-resume", "--paused", one, album.path + "/2.ogg", disc.path + "/3.ogg"])
        try await world.waitForScannedQueue()
        #expect(try await world.queueTitles() == ["One", "Two", "Three"])
        try await world.waitUntil("the folders watched") { world.log.contains("watching 3 more folders for changes") }

        // Retagged outside the music folder, then moved back: the files arrive with the folder,
        // no event of their own.
        let outside = world.home.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: album, to: outside.appendingPathComponent("album"))
        try await Self.writeTrack(outside.path + "/album/2.ogg", tags: Self.titled("Two Retagged"))
        try await Self.writeTrack(outside.path + "/album/disc/3.ogg", tags: Self.titled("Three Retagged"))
        try FileManager.default.moveItem(at: outside.appendingPathComponent("album"), to: album)
        try await world.waitUntil("the moved-in folder's files read") {
            try await world.queueTitles() == ["One", "Two Retagged", "Three Retagged"]
        }

        // Its subfolder is watched under its path again: an edit there reaches the queue.
        try await Self.writeTrack(disc.path + "/3.ogg", tags: Self.titled("Three Edited"))
        try await world.waitUntil("the edit in the moved-in subfolder published") {
            try await world.queueTitles() == ["One", "Two Retagged", "Three Edited"]
        }

        // The entry of a file edited while its folder was away was not marked broken: it plays.
        let tracks = try await world.proxy(MPRISNames.trackList).property("Tracks")
        guard case .array(_, let ids) = tracks, ids.count == 3 else { throw TestSupportError("tracks: \(tracks)") }
        try await world.proxy(MPRISNames.trackList).call("GoTo", [ids[1]])
        try await world.waitUntil("the retagged track current") { try await world.title() == "Two Retagged" }

        // A folder never queued, moved in whole: its files are read into the cache.
        let fresh = outside.appendingPathComponent("fresh/deeper")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        try await Self.writeTrack(fresh.path + "/4.ogg", tags: Self.titled("Four"))
        try FileManager.default.moveItem(at: outside.appendingPathComponent("fresh"), to: world.media.appendingPathComponent("fresh"))
        let moved = world.media.path + "/fresh/deeper/4.ogg"
        try await world.waitUntil("the moved-in file in the cache") {
            guard let identity = FileIdentity.current(path: moved) else { return false }
            // A fresh reader each time: one that met a lock held too long stops reading.
            let cache = LibraryCache(directory: world.home.path + "/cache/linnet", logger: Logger(label: "test"))
            return cache.lookup([identity]).first??.metadata.title == "Four"
        }
        #expect(world.log.contains("now watched"), "log: \(world.log.suffix(3000))")
        world.kill()
    }

    @Test(.timeLimit(.minutes(3)))
    func aCoverDeletedBesideTheLoadedTrack_leavesItsArtInOneMetadataChange() async throws {
        let world = try LinnetWorld()
        let cover = world.media.appendingPathComponent("cover.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: cover)
        try await world.makeTrack("1.ogg", title: "Song", trackNumber: 1)
        try await world.makeTrack("2.ogg", title: "Other", trackNumber: 2)
        try await world.start(["--no-resume", "--paused", world.media.path])
        try await world.waitForScannedQueue()
        try await world.waitUntil("the folder art published") {
            try await world.player("Metadata")["mpris:artUrl"] == .string(cover.absoluteString)
        }
        try await world.waitUntil("the folder watched") { world.log.contains("watching 1 more folders for changes") }
        _ = try await world.player("PlaybackStatus")
        let before = world.signals.values.count

        try FileManager.default.removeItem(at: cover)
        try await world.waitUntil("the art gone") { try await world.player("Metadata")["mpris:artUrl"] == nil }
        let changes = try await metadataChanges(world, after: before)
        #expect(changes.count == 1, "\(changes)")
        #expect(changes.first?["mpris:artUrl"] == nil)
        #expect(changes.first?["xesam:title"] == .string("Song"))
        // The other queued track lost it too, without a read of either file.
        let trackList = world.proxy(MPRISNames.trackList)
        let reply = try await trackList.call("GetTracksMetadata", [try await trackList.property("Tracks")])
        guard case .array(_, let maps)? = reply.first else { throw TestSupportError("no metadata: \(reply)") }
        #expect(maps.count == 2 && maps.allSatisfy { $0["mpris:artUrl"] == nil }, "\(maps)")
        world.kill()
    }

    @Test(.timeLimit(.minutes(3)))
    func aTagStrippedFromTheLoadedFile_leavesItsMetadata() async throws {
        let world = try LinnetWorld()
        let path = world.media.path + "/loaded.ogg"
        try await Self.writeTrack(path, tags: #"title="Full\ Title",artist="Tester",album="Album""#)
        try await world.start(["--no-resume", "--paused", path])
        try await world.waitForScannedQueue()
        #expect(try await world.player("Metadata")["xesam:album"] == .string("Album"))
        try await world.waitUntil("the folder watched") { world.log.contains("watching 1 more folders for changes") }
        _ = try await world.player("PlaybackStatus")
        var seen = world.signals.values.count

        // The album and artist removed: one change, without them.
        try await Self.writeTrack(path, tags: #"title="Full\ Title""#, atomically: true)
        try await world.waitUntil("the album gone") { try await world.player("Metadata")["xesam:album"] == nil }
        var changes = try await metadataChanges(world, after: seen)
        #expect(changes.count == 1, "\(changes)")
        #expect(changes.first?["xesam:title"] == .string("Full Title"))
        #expect(changes.first?["xesam:artist"] == nil)
        #expect(changes.first?["xesam:album"] == nil)
        seen = world.signals.values.count

        // Every tag removed: the title falls back to the file's name, as before any read.
        try await Self.writeTrack(path, tags: nil, atomically: true)
        try await world.waitUntil("the title gone") { try await world.title() == "loaded" }
        changes = try await metadataChanges(world, after: seen)
        #expect(changes.count == 1, "\(changes)")
        #expect(changes.first?["xesam:title"] == .string("loaded"))
        world.kill()
    }

    @Test(.timeLimit(.minutes(3)))
    func anExhaustedInotifyBudget_isLoggedOnceAndPlaybackGoesOn() async throws {
        let world = try LinnetWorld()
        var paths: [String] = []
        for index in 1...3 {
            let folder = world.media.appendingPathComponent("f\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.path + "/\(index).ogg"
            try await Self.writeTrack(path, tags: Self.titled("Song \(index)"))
            paths.append(path)
        }
        // A user namespace of its own whose inotify watch budget is 0 (the count is per
        // namespace, so this machine's other programs keep theirs).
        world.launcher = ["/usr/bin/unshare", "--user", "--map-root-user", "/bin/sh", "-c",
                          #"echo 0 > /proc/sys/user/max_inotify_watches && exec "$0" "$@""#]
        try await world.start(["--no-resume", "--paused"] + paths)
        try await world.waitForScannedQueue()
        try await world.waitUntil("the limit logged") { world.log.contains("inotify watch limit") }
        // A later folder (the queue grows) meets the same limit without a second message.
        let later = world.media.appendingPathComponent("later")
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        try await Self.writeTrack(later.path + "/4.ogg", tags: Self.titled("Song 4"))
        let added = URL(fileURLWithPath: later.path + "/4.ogg").absoluteString
        try await world.proxy(MPRISNames.trackList).call(
            "AddTrack", [.string(added), .objectPath(TrackID.noTrack.path), .boolean(false)])
        try await world.waitForScannedQueue()
        try await world.playerctl("play")
        try await world.waitUntil("playing") { try await world.player("PlaybackStatus") == .string("Playing") }
        #expect(world.process?.isRunning == true)
        #expect(world.log.components(separatedBy: "inotify watch limit").count == 2, "log: \(world.log.suffix(3000))")
        world.kill()
    }
}
