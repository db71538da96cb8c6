import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// linnet as a user runs it: a second start on the same folder reads no tags (the cache in
/// $XDG_CACHE_HOME/linnet answers), and a file edited in a queued folder shows its new tags.
@Suite struct LibraryCacheDaemonTests {
    @Test func aSecondStartAnswersFromTheCacheWithoutReadingTags() async throws {
        let world = try LinnetWorld()
        for index in 1...3 { try await world.makeTrack("\(index).ogg", title: "Song \(index)", trackNumber: index) }
        try await world.start(["--no-resume", "--paused", world.media.path])
        try await world.waitForScannedQueue()
        #expect(world.log.contains("0 from the cache, 3 read by TagLib, 0 by GStreamer"), "log: \(world.log.suffix(3000))")
        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)
        #expect(FileManager.default.fileExists(atPath: world.home.path + "/cache/linnet/library.sqlite3"))

        try await world.start(["--no-resume", "--paused", world.media.path])
        try await world.waitForScannedQueue()
        #expect(try await world.queueTitles() == ["Song 1", "Song 2", "Song 3"])
        #expect(world.log.contains("3 from the cache, 0 read by TagLib, 0 by GStreamer"), "log: \(world.log.suffix(3000))")
    }

    @Test func aFileEditedWhileQueuedShowsItsNewTags() async throws {
        let world = try LinnetWorld()
        // The second track is edited: the first is loaded (paused), and the engine's own tags
        // for it may arrive at any time and win.
        try await world.makeTrack("1.ogg", title: "Loaded", trackNumber: 1)
        try await world.makeTrack("2.ogg", title: "Before", trackNumber: 2)
        try await world.start(["--no-resume", "--paused", world.media.path])
        try await world.waitForScannedQueue()
        #expect(try await world.queueTitles() == ["Loaded", "Before"])
        try await world.waitUntil("the folder watched") { world.log.contains("watching 1 more folders for changes") }

        try await world.makeTrack("2.ogg", title: "After", trackNumber: 2)
        try await world.waitUntil("the edited title published") { try await world.queueTitles() == ["Loaded", "After"] }
        #expect(world.log.contains("files changed in a watched folder"))

        // A cover dropped into the folder reaches tracks whose tags came from the cache.
        let cover = world.media.appendingPathComponent("cover.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: cover)
        try await world.waitUntil("the folder art published") {
            let trackList = world.proxy(MPRISNames.trackList)
            let reply = try await trackList.call("GetTracksMetadata", [try await trackList.property("Tracks")])
            guard case .array(_, let maps)? = reply.first else { return false }
            return maps.count == 2 && maps[1]["mpris:artUrl"] == .string(cover.absoluteString)
        }
    }
}
