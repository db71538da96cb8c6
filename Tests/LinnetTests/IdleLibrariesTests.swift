import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// SQLite and TagLib are closed again once linnet has read its queue and nothing uses them, and
/// opened again by the next read: a file edited in a watched folder still shows its new tags.
@Suite struct IdleLibrariesTests {
    /// The lazily loaded libraries `pid` has mapped now.
    private func mapped(_ pid: Int32) throws -> (sqlite: Bool, taglib: Bool) {
        // Read to the end: /proc files report no size, and the mappings run past one page.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        // The listing is whole: GLib is loaded at start and stays (GStreamer plays meanwhile).
        // Not libdbus: it is linked into linnet (Sources/LinkedDBus).
        #expect(maps.contains("/libglib-2.0.so") && maps.contains("/libgstreamer-1.0.so"))
        return (maps.contains("/libsqlite3.so"), maps.contains("/libtag.so"))
    }

    @Test func sqliteAndTagLibAreClosedWhileIdleAndOpenedAgainForTheNextRead() async throws {
        let world = try LinnetWorld()
        try await world.makeTrack("1.ogg", title: "Loaded", trackNumber: 1)
        try await world.makeTrack("2.ogg", title: "Before", trackNumber: 2)
        try await world.start(["--no-resume", "--paused", world.media.path])
        let pid = try #require(world.process?.processIdentifier)
        try await world.waitForScannedQueue()
        #expect(world.log.contains("0 from the cache, 2 read by TagLib"), "log: \(world.log.suffix(3000))")
        try await world.waitUntil("the folder watched") { world.log.contains("watching 1 more folders for changes") }
        // Both were loaded for the scan: TagLib read the files, SQLite stored them.
        try await world.waitUntil("SQLite and TagLib closed after the scan") {
            let now = try self.mapped(pid)
            return !now.sqlite && !now.taglib
        }
        #expect(try await world.queueTitles() == ["Loaded", "Before"])

        // The next read opens both again, and its tags are published and cached.
        try await world.makeTrack("2.ogg", title: "After", trackNumber: 2)
        try await world.waitUntil("the edited title published") { try await world.queueTitles() == ["Loaded", "After"] }
        try await world.waitUntil("SQLite and TagLib closed again") {
            let now = try self.mapped(pid)
            return !now.sqlite && !now.taglib
        }
        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)

        // What the reopened SQLite stored is there: a second start reads no tags.
        try await world.start(["--no-resume", "--paused", world.media.path])
        try await world.waitForScannedQueue()
        #expect(try await world.queueTitles() == ["Loaded", "After"])
        #expect(world.log.contains("2 from the cache, 0 read by TagLib"), "log: \(world.log.suffix(3000))")
    }
}
