@testable import LibraryFormats
import Foundation
import Glibc
import LinnetCore
import TestSupport
import Testing

/// Sidecar lyrics: LRC time stamps become synced lines and disappear from the plain text.
@Suite struct LibraryLyricsTests {
    @Test func lrcStampsTagsOffsetAndWordStampsAreParsed() {
        let lyrics = LRCParser.parse("""
            [ar:Someone]
            [ti:A Song]
            [offset:+500]
            [00:12.00][01:02.50]Chorus <00:12.50>line
            [00:05.5]First line
            [00:20]Bare minutes
            [00:30.123]Milliseconds
            [00:40:05]Colon fraction
            [Verse] not a stamp
            [99:99.00]Bad seconds
            [00:01.00]
            """)
        #expect(lyrics.synced == [
            .init(timeMicroseconds: 500_000, text: ""),
            .init(timeMicroseconds: 5_000_000, text: "First line"),
            .init(timeMicroseconds: 11_500_000, text: "Chorus line"),
            .init(timeMicroseconds: 19_500_000, text: "Bare minutes"),
            .init(timeMicroseconds: 29_623_000, text: "Milliseconds"),
            .init(timeMicroseconds: 39_550_000, text: "Colon fraction"),
            .init(timeMicroseconds: 62_000_000, text: "Chorus line"),
        ])
        #expect(lyrics.plainText == "First line\nChorus line\nBare minutes\nMilliseconds\nColon fraction\nChorus line")
    }

    @Test func lrcWithoutStampsIsPlainTextWithoutTags() {
        let lyrics = LRCParser.parse("[ar:Someone]\r\nJust words\r\n\r\nMore words\r\n")
        #expect(lyrics.synced.isEmpty)
        #expect(lyrics.plainText == "Just words\n\nMore words")
    }

    @Test func sidecarsAreFoundNextToTheTrackOnly() throws {
        let dir = try ScratchDirectory()
        let track = try dir.write("album/01 song.ogg", "x")
        let uri = FileURI.uri(forPath: track)
        #expect(SidecarLyrics.find(forTrack: uri) == nil)

        try dir.write("album/01 song.txt", "\u{FEFF}Plain words\n")
        let plain = try #require(SidecarLyrics.find(forTrack: uri))
        #expect(plain.plainText == "Plain words" && plain.synced.isEmpty)
        #expect(plain.sourcePath == dir.path("album/01 song.txt"))

        try dir.write("album/01 song.lrc", "[00:01.00]Synced words\n")
        let synced = try #require(SidecarLyrics.find(forTrack: uri))
        #expect(synced.synced == [.init(timeMicroseconds: 1_000_000, text: "Synced words")])
        #expect(synced.plainText == "Synced words")

        #expect(SidecarLyrics.find(forTrack: "https://example.org/01%20song.ogg") == nil)
    }

    @Test func symlinkedAndOversizedSidecarsAreIgnored() throws {
        let dir = try ScratchDirectory()
        let secret = try dir.write("secret.txt", "private")
        let track = try dir.write("album/t.ogg", "x")
        #expect(symlink(secret, dir.path("album/t.txt")) == 0)
        #expect(SidecarLyrics.find(forTrack: FileURI.uri(forPath: track)) == nil)

        let big = try dir.write("album/big.ogg", "x")
        try dir.write("album/big.lrc", String(repeating: "[00:01.00]la\n", count: 90_000))
        #expect(SidecarLyrics.find(forTrack: FileURI.uri(forPath: big)) == nil)
    }
}
