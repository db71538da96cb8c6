import Foundation
import Glibc
import Playback
import Testing

/// The scanner reads local files with TagLib, field for field what GStreamer read before, and
/// leaves to GStreamer only what TagLib cannot open.
@Suite struct TagLibScannerTests {

    @Test func tagLibReadsWhatTheDiscovererRead() async throws {
        let media = try MediaFactory()
        let uri = try await media.ogg("tagged.ogg", buffers: 43, tags: TagTests.fullTags)
        let art = ArtCache(directory: media.path("art"))
        let tagLib = MetadataScanner(artCache: art)
        let discoverer = MetadataScanner(artCache: art, source: .gstreamerOnly)
        let read = try await tagLib.scan(uri)
        let reference = try await discoverer.scan(uri)
        #expect(tagLib.tally.tagLibReads == 1 && tagLib.tally.gstreamerReads == 0)
        #expect(discoverer.tally.tagLibReads == 0 && discoverer.tally.gstreamerReads == 1)

        let metadata = read.metadata
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
        #expect(metadata.date == "2021-05-03")
        #expect(metadata.replayGain.trackGain == -6.5)
        #expect(metadata.replayGain.trackPeak == 0.9)
        #expect(metadata.replayGain.albumGain == -7.25)
        #expect(metadata.hasEmbeddedArt == false)
        // Same fields as the discoverer's, but for what only one of them knows.
        var comparable = metadata
        comparable.hasEmbeddedArt = nil
        comparable.durationMicroseconds = reference.metadata.durationMicroseconds
        comparable.beatsPerMinute = reference.metadata.beatsPerMinute
        comparable.lyrics = reference.metadata.lyrics
        #expect(comparable == reference.metadata)
        // 43 buffers of 1024 frames at 44.1 kHz: ~998 ms; TagLib counts milliseconds.
        let expected: Int64 = 43 * 1024 * 1_000_000 / 44_100
        print("durations: TagLib \(read.durationMicroseconds ?? -1) µs, discoverer \(reference.durationMicroseconds ?? -1) µs")
        #expect(abs((read.durationMicroseconds ?? 0) - expected) < 30_000)
    }

    @Test func id3v2TagsOfAnMP3AreRead() async throws {
        let media = try MediaFactory()
        let uri = try await media.mp3(
            "tagged.mp3",
            tags: #"title="Mp\ Three",artist="Some\ One",album-artist="Band",track-number=(uint)4,album-disc-number=(uint)1,genre="Jazz",replaygain-track-gain=-3.5,replaygain-track-peak=0.5,replaygain-album-gain=-4.25"#)
        let art = ArtCache(directory: media.path("art"))
        let scanner = MetadataScanner(artCache: art)
        let metadata = try await scanner.scan(uri).metadata
        let reference = try await MetadataScanner(artCache: art, source: .gstreamerOnly).scan(uri).metadata
        #expect(scanner.tally.tagLibReads == 1)
        #expect(metadata.title == "Mp Three")
        #expect(metadata.artists == ["Some One"])
        #expect(metadata.albumArtists == ["Band"])
        #expect(metadata.trackNumber == 4)
        #expect(metadata.discNumber == 1)
        #expect(metadata.genres == ["Jazz"])
        // id3v2mux writes ReplayGain as RVA2 frames, in fixed point.
        print("RVA2: TagLib \(metadata.replayGain), discoverer \(reference.replayGain)")
        #expect(abs((metadata.replayGain.trackGain ?? 0) + 3.5) < 0.01)
        #expect(abs((metadata.replayGain.trackPeak ?? 0) - 0.5) < 0.01)
        #expect(abs((metadata.replayGain.albumGain ?? 0) + 4.25) < 0.01)
    }

    @Test func unsynchronisedLyricsAndTXXXReplayGainAreRead() async throws {
        let media = try MediaFactory()
        let audio = try await media.bareMP3("bare.mp3")
        let tag = MediaFactory.id3v2Tag([
            MediaFactory.usltFrame("plain words"), MediaFactory.txxxFrame("REPLAYGAIN_TRACK_GAIN", "-2.10 dB"),
            MediaFactory.syltFrame([(1_000, "ignored while USLT exists")]),
        ])
        try Data(tag + audio).write(to: URL(fileURLWithPath: media.path("uslt.mp3")))
        let metadata = try await MetadataScanner(artCache: ArtCache(directory: media.path("art")))
            .scan(media.uri("uslt.mp3")).metadata
        #expect(metadata.lyrics == "plain words")
        #expect(metadata.replayGain.trackGain == -2.1)
    }

    @Test func vorbisCommentLyricsAreRead() async throws {
        let media = try MediaFactory()
        // GStreamer writes no lyrics to Vorbis comments; taggers write them as LYRICS.
        let uri = try await media.ogg("lyrics.ogg", tags: #"title="Sung",extended-comment="LYRICS=la\ la\ la""#)
        let metadata = try await MetadataScanner(artCache: ArtCache(directory: media.path("art"))).scan(uri).metadata
        #expect(metadata.title == "Sung")
        #expect(metadata.lyrics == "la la la")
    }

    @Test func synchronisedID3v2LyricsBecomeLRCText() async throws {
        let media = try MediaFactory()
        let audio = try await media.bareMP3("bare.mp3")
        let tag = MediaFactory.id3v2Tag([MediaFactory.syltFrame([(1_500, "first line"), (62_250, "second line")])])
        try Data(tag + audio).write(to: URL(fileURLWithPath: media.path("synced.mp3")))
        let scanner = MetadataScanner(artCache: ArtCache(directory: media.path("art")))
        let metadata = try await scanner.scan(media.uri("synced.mp3")).metadata
        #expect(scanner.tally.tagLibReads == 1)
        #expect(metadata.lyrics == "[00:01.50]first line\n[01:02.25]second line\n")
    }

    @Test func embeddedArtIsStoredAndFlagged() async throws {
        let media = try MediaFactory()
        let png = try await media.png("cover-source.png")
        let block = MediaFactory.pictureBlock(png: png)
        let uri = try await media.ogg("art.ogg", tags: #"title="Art",extended-comment="METADATA_BLOCK_PICTURE="# + block + #"""#)
        let flac = try await media.flac("plain.flac", tags: #"title="Flac""#)
        let art = ArtCache(directory: media.path("cache/art"))
        let scanner = MetadataScanner(artCache: art)
        let withArt = try await scanner.scan(uri).metadata
        #expect(withArt.hasEmbeddedArt == true)
        let path = try #require(withArt.artURI.flatMap(URL.init(string:))).path
        #expect(path.hasPrefix(art.directory + "/") && path.hasSuffix(".png"))
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == png)
        let plain = try await scanner.scan(flac).metadata
        #expect(plain.title == "Flac")
        #expect(plain.hasEmbeddedArt == false)
        #expect(plain.artURI == nil)
        #expect(scanner.tally.tagLibReads == 2)
    }

    @Test func aBrokenFileFailsWithAReasonAfterBothReaders() async throws {
        let media = try MediaFactory()
        let broken = try media.corrupt("broken.ogg")
        let good = try await media.ogg("good.ogg", tags: #"title="Good""#)
        let scanner = MetadataScanner(artCache: ArtCache(directory: media.path("art")))
        let results = await scanner.scan([broken, good])
        guard case .failure(let failure) = results[0] else {
            Issue.record("random bytes scanned as a track")
            return
        }
        #expect(failure.uri == broken)
        #expect(!failure.message.isEmpty)
        #expect(try results[1].get().metadata.title == "Good")
        #expect(scanner.tally.failures == 1 && scanner.tally.tagLibReads == 1)
    }
}

/// Reading tags must not look like writing to folder watchers: TagLib opened files read-write
/// when it could, and closing them reported IN_CLOSE_WRITE, so linnet's own folder watcher read
/// every file again, and again.
@Suite struct TagLibReadOnlyTests {
    @Test func scanningAFileReportsNoWriteToInotify() async throws {
        let media = try MediaFactory()
        let uri = try await media.ogg("watched.ogg", tags: #"title="Watched""#)
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(inotify >= 0)
        defer { close(inotify) }
        try #require(inotify_add_watch(inotify, media.directory.path, UInt32(IN_CLOSE_WRITE | IN_MODIFY)) >= 0)

        let scanner = MetadataScanner(artCache: ArtCache(directory: media.path("art")))
        #expect(try await scanner.scan(uri).metadata.title == "Watched")
        #expect(scanner.tally.tagLibReads == 1)
        // The kernel queues the event at close(), before the scan returns.
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
        #expect(count < 0 && errno == EAGAIN, "the scan looked like a write (\(count) bytes of events)")
    }
}
