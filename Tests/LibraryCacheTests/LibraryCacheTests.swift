import Foundation
import Glibc
@testable import LibraryCache
import Playback
import TestSupport
import Testing

/// The tag cache answers an unchanged library without reading a tag, notices changed files, and
/// never stands between the scanner and the files: damaged, foreign-version or unwritable caches
/// are rebuilt or bypassed.
@Suite struct LibraryCacheTests {
    /// A temporary library of tagged Ogg files and a cache folder beside it.
    final class Library: @unchecked Sendable {
        let root: String
        var cacheDirectory: String { root + "/cache/linnet" }
        var art: ArtCache { ArtCache(directory: root + "/cache/linnet/art") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-cache-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/music", withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func track(_ index: Int, title: String? = nil) async throws -> String {
            let path = root + "/music/\(index).ogg"
            try await TaggedMedia.ogg(at: path, tags: ["title": title ?? "Track \(index)", "artist": "Band"])
            return "file://" + path
        }

        func scanner(_ cache: LibraryCache) -> MetadataScanner { MetadataScanner(artCache: art, cache: cache) }
    }

    /// A cached row holds the folder art its file was read with; the answer carries the folder's
    /// cover as it is now, so a cover added or deleted beside unchanged files needs no read.
    @Test func aCacheHitCarriesTheFoldersCoverAsItIsNow() async throws {
        let library = try Library()
        let uri = try await library.track(0)
        let cover = library.root + "/music/cover.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: cover))
        let log = LogRecord()
        // A scanner per step: the last scan's rows are written when its scanner stops.
        func scanner() -> MetadataScanner {
            library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        }
        let first = scanner()
        #expect(try await first.scan(uri).metadata.artURI == URL(fileURLWithPath: cover).absoluteString)
        #expect(first.tally.tagLibReads == 1)
        first.shutdown()

        try FileManager.default.removeItem(atPath: cover)
        let second = scanner()
        #expect(try await second.scan(uri).metadata.artURI == nil)
        #expect(second.tally.cacheHits == 1 && second.tally.tagLibReads == 0, "\(second.tally)")
        second.shutdown()

        let other = library.root + "/music/Folder.PNG"
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: other))
        let third = scanner()
        #expect(try await third.scan(uri).metadata.artURI == URL(fileURLWithPath: other).absoluteString)
        #expect(third.tally.cacheHits == 1 && third.tally.tagLibReads == 0, "\(third.tally)")
        third.shutdown()
        #expect(log.all.isEmpty, "the cache complained: \(log.all)")
    }

    @Test func anUnchangedLibraryIsAnsweredWithoutReadingTags() async throws {
        let library = try Library()
        var uris: [String] = []
        for index in 0..<3 { uris.append(try await library.track(index)) }
        let log = LogRecord()
        let first = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        let read = await first.scan(uris).map { try? $0.get() }
        #expect(first.tally.tagLibReads == 3 && first.tally.cacheHits == 0)
        first.shutdown()
        // As private as the state: SQLite would make the file 0644, and its WAL files copy it.
        for suffix in ["", "-wal", "-shm"] {
            var info = stat()
            let path = library.cacheDirectory + "/" + LibraryCache.fileName + suffix
            guard stat(path, &info) == 0 else { continue }
            #expect(info.st_mode & 0o777 == 0o600, "\(path) has mode \(String(info.st_mode & 0o777, radix: 8))")
        }

        // A second start: a new cache object on the same file.
        let second = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        let cached = await second.scan(uris).map { try? $0.get() }
        #expect(second.tally.cacheHits == 3)
        #expect(second.tally.tagLibReads == 0 && second.tally.gstreamerReads == 0)
        #expect(cached == read)
        #expect(cached.compactMap { $0?.metadata.title } == ["Track 0", "Track 1", "Track 2"])
        #expect(log.all.isEmpty, "the cache complained: \(log.all)")

        // Same size and modification time, other tags inside: the cache's answer stands, which
        // shows the file was not opened.
        let path = String(uris[0].dropFirst("file://".count))
        let stamp = try modificationTime(path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let range = try #require(bytes.firstRange(of: Array("Track 0".utf8)))
        bytes.replaceSubrange(range, with: Array("Track X".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try setModificationTime(path, stamp)
        let third = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        #expect(try await third.scan(uris[0]).metadata.title == "Track 0")
        #expect(third.tally.cacheHits == 1 && third.tally.tagLibReads == 0)

        // A rewritten file (new modification time) is read again.
        _ = try await library.track(1, title: "Renamed")
        let fourth = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        let titles = await fourth.scan(uris).map { try? $0.get().metadata.title }
        #expect(titles[1] == "Renamed")
        #expect(fourth.tally.tagLibReads == 1 && fourth.tally.cacheHits == 2)
    }

    @Test func aDamagedCacheFileIsRebuilt() async throws {
        let library = try Library()
        let uri = try await library.track(0)
        try FileManager.default.createDirectory(atPath: library.cacheDirectory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(garbage).write(to: URL(fileURLWithPath: library.cacheDirectory + "/" + LibraryCache.fileName))

        let log = LogRecord()
        let scanner = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        #expect(try await scanner.scan(uri).metadata.title == "Track 0")
        scanner.shutdown()
        #expect(log.count(containing: "damaged") == 1, "log: \(log.all)")
        let again = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        #expect(try await again.scan(uri).metadata.title == "Track 0")
        #expect(again.tally.cacheHits == 1)
    }

    @Test func aCacheOfAnotherSchemaVersionIsRebuilt() async throws {
        let library = try Library()
        let uri = try await library.track(0)
        let log = LogRecord()
        let older = LibraryCache(directory: library.cacheDirectory, logger: log.logger, schemaVersion: LibraryCache.schemaVersion - 1)
        let first = library.scanner(older)
        _ = try await first.scan(uri)
        first.shutdown()
        #expect(log.all.isEmpty)

        let current = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        #expect(try await current.scan(uri).metadata.title == "Track 0")
        #expect(current.tally.tagLibReads == 1 && current.tally.cacheHits == 0)
        current.shutdown()
        #expect(log.count(containing: "another schema version") == 1, "log: \(log.all)")
        let again = library.scanner(LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        _ = try await again.scan(uri)
        #expect(again.tally.cacheHits == 1)
    }

    @Test func anUnwritableCacheFolderLeavesScanningWorking() async throws {
        let library = try Library()
        var uris: [String] = []
        for index in 0..<2 { uris.append(try await library.track(index)) }
        // A regular file where the folder should be: no user, not even root, can create it.
        _ = FileManager.default.createFile(atPath: library.root + "/cache", contents: Data("not a folder".utf8))
        let log = LogRecord()
        let scanner = MetadataScanner(
            artCache: ArtCache(directory: library.root + "/art"),
            cache: LibraryCache(directory: library.cacheDirectory, logger: log.logger))
        for _ in 0..<2 {
            let titles = await scanner.scan(uris).map { try? $0.get().metadata.title }
            #expect(titles == ["Track 0", "Track 1"])
        }
        #expect(scanner.tally.tagLibReads == 4)
        #expect(log.count(containing: "unusable") == 1, "log: \(log.all)")
    }

    @Test func recordsKeepEveryField() {
        var metadata = TrackMetadata()
        metadata.title = "Tïtle"
        metadata.artists = ["A", "B"]
        metadata.album = "Album"
        metadata.albumArtists = ["C"]
        metadata.trackNumber = 3
        metadata.trackCount = 12
        metadata.discNumber = 1
        metadata.discCount = 2
        metadata.genres = ["Rock", "Jazz"]
        metadata.date = "2021-05-03"
        metadata.composers = ["D"]
        metadata.comment = ""
        metadata.lyrics = "[00:01.00]la\nla"
        metadata.beatsPerMinute = 120.5
        metadata.durationMicroseconds = 1_000_000
        metadata.replayGain = ReplayGain(trackGain: -6.5, trackPeak: 0.9, albumGain: -7.25, albumPeak: 1, referenceLevel: 89)
        metadata.artURI = "file:///tmp/a.png"
        metadata.hasEmbeddedArt = true
        let track = ScannedTrack(uri: "", durationMicroseconds: 998_000, metadata: metadata)
        #expect(TrackRecord.decode(TrackRecord.encode(track)) == track)
        let empty = ScannedTrack(uri: "", durationMicroseconds: nil, metadata: TrackMetadata())
        #expect(TrackRecord.decode(TrackRecord.encode(empty)) == empty)
        #expect(TrackRecord.decode([0xff, 1, 2]) == nil)
        #expect(TrackRecord.decode(Array(TrackRecord.encode(track).dropLast())) == nil)
    }

    private func modificationTime(_ path: String) throws -> timespec {
        var info = stat()
        guard stat(path, &info) == 0 else { throw TestSupportError("stat \(path) failed") }
        return info.st_mtim
    }

    private func setModificationTime(_ path: String, _ time: timespec) throws {
        var times = [time, time]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw TestSupportError("utimensat failed") }
    }
}
