@testable import LibraryFormats
import Foundation
import Glibc
import LinnetCore
import Playback
import TestSupport
import Testing

/// The demo playlist is real, tagged, playable audio, written once.
@Suite struct LibraryDemoTests {
    @Test func demoTracksAreWrittenTaggedAndPlayable() async throws {
        let dir = try ScratchDirectory()
        let demo = DemoPlaylist(directory: dir.path("cache/linnet/demo"))
        let started = ContinuousClock.now
        let uris = try demo.prepare()
        print("synthesised \(uris.count) demo tracks in \(ContinuousClock.now - started)")
        #expect(uris.count == DemoPlaylist.tracks.count && (3...4).contains(uris.count))

        let scanner = MetadataScanner(maxConcurrentScans: 2, artCache: ArtCache(directory: dir.path("art")))
        let results = await scanner.scan(uris)
        for (track, result) in zip(DemoPlaylist.tracks, results) {
            let scanned = try result.get()
            let tags = scanned.metadata
            print("\(track.fileName): title=\(tags.title ?? "-") artists=\(tags.artists) album=\(tags.album ?? "-") "
                + "track=\(tags.trackNumber.map(String.init) ?? "-") genres=\(tags.genres) "
                + "duration=\(scanned.durationMicroseconds ?? -1) µs, size=\(try fileSize(FileURI.path(fromURI: scanned.uri)!)) bytes")
            #expect(tags.title == track.title)
            #expect(tags.artists == [track.artist])
            #expect(tags.album == track.album)
            #expect(tags.trackNumber == track.trackNumber)
            let seconds = Double(scanned.durationMicroseconds ?? 0) / 1e6
            #expect((5...20).contains(seconds))
            #expect(abs((scanned.durationMicroseconds ?? 0) - track.durationMicroseconds) < 1000)
        }
        try intactTracksAreReusedAndDamagedOnesRewritten(demo, first: uris)
    }

    /// Part of the test above, to synthesise the tracks once per run (it takes seconds in debug
    /// builds on a loaded machine).
    private func intactTracksAreReusedAndDamagedOnesRewritten(_ demo: DemoPlaylist, first: [String]) throws {
        let paths = first.map { FileURI.path(fromURI: $0)! }
        let inodes = try paths.map(inode)
        let originalSize = try fileSize(paths[1])
        // Truncated, as by a crash on a file system without atomic rename guarantees.
        #expect(truncate(paths[1], 1000) == 0)
        let second = try demo.prepare()
        #expect(second == first)
        let after = try paths.map(inode)
        #expect(after[0] == inodes[0] && after[2] == inodes[2], "intact files must not be rewritten")
        #expect(after[1] != inodes[1])
        #expect(try fileSize(paths[1]) == originalSize)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: demo.directory).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    private func inode(_ path: String) throws -> UInt64 {
        try (FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    private func fileSize(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
