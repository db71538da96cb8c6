import EventLoop
import Foundation
import LinnetCore
import Testing
import TestSupport

/// The zone watcher hears `localtime` being replaced the way timedatectl does it (a new symlink
/// renamed over the old), and ignores other files in the directory.
@Suite struct TimeZoneWatcherTests {
    @Test func replacingLocaltimeIsReportedAndOtherFilesAreNot() async throws {
        let directory = try ScratchDirectory()
        let loop = EventLoop(name: "test.zone")
        defer { loop.stop() }
        let changes = Recorder<Int>()
        let watcher = try #require(TimeZoneWatcher(directory: directory.path, loop: loop) { changes.record(1) })

        // Another file first: no report. A round trip through the loop after the write has let
        // the watch handle whatever inotify queued for it.
        _ = try directory.write("hostname", "box\n")
        try await waitUntil(.seconds(5), "the loop to run") { loop.sync { true } }
        loop.sync {}
        #expect(changes.values.isEmpty)

        try FileManager.default.createSymbolicLink(atPath: directory.path("localtime.new"),
                                                   withDestinationPath: "/usr/share/zoneinfo/Europe/Berlin")
        #expect(rename(directory.path("localtime.new"), directory.path("localtime")) == 0)
        try await waitUntil(.seconds(10), "the zone change") { !changes.values.isEmpty }
        withExtendedLifetime(watcher) {}
    }
}
