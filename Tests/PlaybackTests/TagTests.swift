import Foundation
import Playback
import Testing

/// Tags written by GStreamer's own encoders come back typed, once per distinct value, and on the
/// right track.
@Suite struct TagTests {
    static let fullTags = #"title="My\ Song",artist="Some\ One",album="The\ Album",album-artist="Band",track-number=(uint)3,track-count=(uint)12,album-disc-number=(uint)2,genre="Rock",composer="Com\ Poser",comment="nice",beats-per-minute=120.5,replaygain-track-gain=-6.5,replaygain-track-peak=0.9,replaygain-album-gain=-7.25,extended-comment="DATE=2021-05-03""#

    @Test func tagsArriveTypedAndDeduplicated() async throws {
        let media = try MediaFactory()
        let uri = try await media.ogg("tagged.ogg", tags: Self.fullTags)
        let engine = GStreamerEngine(output: .description("fakesink"), artCache: ArtCache(directory: media.path("art")))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        try await playToEnd(engine, log)

        let updates = log.events.compactMap(\.metadata).filter { $0.uri == uri }.map(\.1)
        print("metadata events for one track: \(updates.count)")
        // GStreamer posts several TAG messages per track; only changes may come through.
        #expect(!updates.isEmpty)
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0 != $1 })
        let metadata = try #require(updates.last)
        #expect(metadata.title == "My Song")
        #expect(metadata.artists == ["Some One"])
        #expect(metadata.album == "The Album")
        #expect(metadata.albumArtists == ["Band"])
        #expect(metadata.trackNumber == 3)
        #expect(metadata.trackCount == 12)
        #expect(metadata.discNumber == 2)
        #expect(metadata.genres == ["Rock"])
        #expect(metadata.composers == ["Com Poser"])
        #expect(metadata.comment == "nice")
        #expect(metadata.beatsPerMinute == 120.5)
        #expect(metadata.date == "2021-05-03")
        #expect(metadata.replayGain.trackGain == -6.5)
        #expect(metadata.replayGain.trackPeak == 0.9)
        #expect(metadata.replayGain.albumGain == -7.25)
        #expect(metadata.artURI == nil)
    }

    @Test func tagsOfAQueuedTrackWaitForItsBoundary() async throws {
        let media = try MediaFactory()
        let first = try await media.ogg("first.ogg", buffers: 30, tags: #"title="First""#)
        let second = try await media.ogg("second.ogg", buffers: 20, tags: #"title="Second""#)
        let engine = GStreamerEngine(output: .description("fakesink sync=true"), artCache: ArtCache(directory: media.path("art")))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.setNext(second)
        try await playToEnd(engine, log)

        let events = log.events
        let switchIndex = try #require(events.firstIndex(of: .trackStarted(uri: second)))
        let titles = events.enumerated().compactMap { index, event in
            event.metadata.map { (index, $0.uri, $0.1.title) }
        }
        #expect(titles.contains { $0.0 < switchIndex && $0.1 == first && $0.2 == "First" })
        #expect(titles.contains { $0.0 > switchIndex && $0.1 == second && $0.2 == "Second" })
        // The second file's tags never leak into the first track's metadata.
        #expect(!titles.contains { $0.1 == first && $0.2 == "Second" })
    }

    @Test func embeddedArtIsWrittenOnceToTheCache() async throws {
        let media = try MediaFactory()
        let png = try await media.png("cover-source.png")
        let block = MediaFactory.pictureBlock(png: png)
        let uri = try await media.ogg("art.ogg", tags: #"title="Art",extended-comment="METADATA_BLOCK_PICTURE="# + block + #"""#)
        let cache = ArtCache(directory: media.path("cache/linnet/art"))

        let engine = GStreamerEngine(output: .description("fakesink"), artCache: cache)
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        try await playToEnd(engine, log)
        let art = try #require(log.events.compactMap(\.metadata).last?.1.artURI)
        let path = try #require(URL(string: art)).path
        #expect(path.hasPrefix(cache.directory + "/"))
        #expect(path.hasSuffix(".png"))
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == png)
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date

        // Playing it again and scanning it find the same file and leave it alone.
        try await Task.sleep(for: .milliseconds(20))
        engine.load(uri)
        try await playToEnd(engine, log)
        let scanned = try await MetadataScanner(artCache: cache).scan(uri)
        #expect(scanned.metadata.artURI == art)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory).count == 1)
        let after = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(written != nil && written == after)
    }

    @Test func folderArtIsTheFallback() async throws {
        let media = try MediaFactory()
        let uri = try media.indexedWAV("plain.wav", frames: 4_410)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        try Data(jpeg).write(to: URL(fileURLWithPath: media.path("Cover.JPG")))
        let engine = GStreamerEngine(output: .description("fakesink"), artCache: ArtCache(directory: media.path("art")))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        try await playToEnd(engine, log)
        let expected = URL(fileURLWithPath: media.path("Cover.JPG")).absoluteString
        #expect(log.events.compactMap(\.metadata).last?.1.artURI == expected)
        #expect(ArtCache.folderArt(nextTo: uri) == expected)
        #expect(ArtCache.folderArt(nextTo: "https://example.org/a.ogg") == nil)
    }

    @Test func artCacheFollowsXDGCacheHome() {
        #expect(ArtCache.standard(environment: ["XDG_CACHE_HOME": "/tmp/x", "HOME": "/home/u"]).directory
            == "/tmp/x/linnet/art")
        #expect(ArtCache.standard(environment: ["HOME": "/home/u"]).directory == "/home/u/.cache/linnet/art")
        // The XDG spec says relative paths are invalid and must be ignored.
        #expect(ArtCache.standard(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/home/u"]).directory
            == "/home/u/.cache/linnet/art")
    }
}
