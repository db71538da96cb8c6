@testable import LibraryFormats
import Foundation
import Glibc
import LinnetCore
import TestSupport
import Testing

/// The playlist formats as real players write them, and inputs written to hurt.
@Suite struct LibraryPlaylistTests {
    let parser = PlaylistParser()

    @Test func extendedM3UWithCRLFBOMRelativePathsAndURIs() throws {
        let dir = try ScratchDirectory()
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:123,Some Artist - A Title - Part 2\r\nsub/one.ogg\r\n"
            + "\r\n# a comment\r\n../up.flac\r\n/abs/two.mp3\r\n#EXTINF:-1 tvg-id=\"x\",Radio Only\r\n"
            + "http://radio.example/stream\r\nfile:///music/My%20Song.ogg\r\nWin\\Dir\\three.ogg\r\n"
            + "#EXTINF:2.5,No Separator\r\nfile:///x/../y.ogg\r\n"
        let path = try dir.write("lists/mix.m3u8", text)
        let parsed = try parser.parse(contentsOf: path)
        let base = dir.path("lists")
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.entries.map(\.uri) == [
            FileURI.uri(forPath: base + "/sub/one.ogg"),
            FileURI.uri(forPath: dir.path("up.flac")),
            "file:///abs/two.mp3",
            "http://radio.example/stream",
            "file:///music/My%20Song.ogg",
            FileURI.uri(forPath: base + "/Win/Dir/three.ogg"),
            "file:///y.ogg",
        ])
        #expect(parsed.entries[0].artist == "Some Artist")
        #expect(parsed.entries[0].title == "A Title - Part 2")
        #expect(parsed.entries[0].durationMicroseconds == 123_000_000)
        #expect(parsed.entries[1].title == nil && parsed.entries[1].durationMicroseconds == nil)
        #expect(parsed.entries[3].title == "Radio Only" && parsed.entries[3].durationMicroseconds == nil)
        #expect(parsed.entries[6].title == "No Separator" && parsed.entries[6].artist == nil)
        #expect(parsed.entries[6].durationMicroseconds == 2_500_000)
    }

    @Test func m3uInLatin1AndUTF16IsDecoded() throws {
        let dir = try ScratchDirectory()
        // "Café.ogg" in Latin-1: é is the single byte 0xE9, invalid as UTF-8.
        let latin1 = try dir.write("old.m3u", bytes: Array("Caf".utf8) + [0xE9] + Array(".ogg\n".utf8))
        #expect(try parser.parse(contentsOf: latin1).entries.map(\.uri) == [FileURI.uri(forPath: dir.path("Café.ogg"))])
        let utf16 = try dir.write("wide.m3u", bytes: [0xFF, 0xFE] + "Ünïcode.ogg\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(try parser.parse(contentsOf: utf16).entries.map(\.uri) == [FileURI.uri(forPath: dir.path("Ünïcode.ogg"))])
    }

    @Test func plsEntriesComeInIndexOrderWithTitlesAndLengths() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("radio.pls", """
            [playlist]
            File2=b.ogg
            Title2=Second
            Length2=-1
            File1=http://stream.example/live
            Title1=Live Stream
            Length1=61
            garbage line
            Title3=orphan title
            NumberOfEntries=5
            Version=2
            """)
        let parsed = try parser.parse(contentsOf: path)
        #expect(parsed.entries.map(\.uri) == ["http://stream.example/live", FileURI.uri(forPath: dir.path("b.ogg"))])
        #expect(parsed.entries.map(\.title) == ["Live Stream", "Second"])
        #expect(parsed.entries.map(\.durationMicroseconds) == [61_000_000, nil])
        let messages = parsed.problems.map(\.description)
        #expect(messages.contains { $0.contains(":8:") && $0.contains("Key=Value") }, "\(messages)")
        #expect(messages.contains { $0.contains("no File3") }, "\(messages)")
        #expect(messages.contains { $0.contains("NumberOfEntries says 5") }, "\(messages)")
    }

    @Test func xspfWithEntitiesCDATANamespacesAndRelativeReferences() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("list.xspf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE playlist [ <!ENTITY boom "&boom;&boom;"> ]>
            <x:playlist version="1" xmlns:x="http://xspf.org/ns/0/">
              <x:title>Not a track title</x:title>
              <!-- <track><location>commented.ogg</location></track> -->
              <x:trackList>
                <x:track>
                  <x:location>sub/My%20Song%20%26%20Co.ogg</x:location>
                  <x:location>alternative.ogg</x:location>
                  <x:title>Rock &amp; Roll &#x263A; &boom;</x:title>
                  <x:creator><![CDATA[Tom <& Jerry>]]></x:creator>
                  <x:duration>185500</x:duration>
                </x:track>
                <track><location>http://example.org/a.ogg?x=1&amp;y=2</location></track>
                <track><title>no location</title></track>
                <track><location>file:///abs/c.ogg</location><duration>junk</duration></track>
              </x:trackList>
            </x:playlist>
            """)
        let parsed = try parser.parse(contentsOf: path)
        #expect(parsed.entries.map(\.uri) == [
            FileURI.uri(forPath: dir.path("sub/My Song & Co.ogg")), "http://example.org/a.ogg?x=1&y=2", "file:///abs/c.ogg",
        ])
        #expect(parsed.entries[0].title == "Rock & Roll ☺ &boom;")
        #expect(parsed.entries[0].artist == "Tom <& Jerry>")
        #expect(parsed.entries[0].durationMicroseconds == 185_500_000)
        #expect(parsed.entries[2].durationMicroseconds == nil)
        #expect(parsed.problems.map(\.error) == [.malformed("a <track> without <location>")])
    }

    @Test func brokenXMLNeverCrashesAndDeepNestingIsRefused() throws {
        let dir = try ScratchDirectory()
        let torn = try dir.write("torn.xspf", "<playlist><trackList><track><location>a.ogg</location></track><track><locat")
        #expect(try parser.parse(contentsOf: torn).entries.map(\.uri) == [FileURI.uri(forPath: dir.path("a.ogg"))])
        let deep = try dir.write("deep.xspf", String(repeating: "<a>", count: 200_000))
        let parsedDeep = try parser.parse(contentsOf: deep)
        #expect(parsedDeep.entries.isEmpty)
        #expect(parsedDeep.problems.contains { $0.description.contains("nested more than") })
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<50_000).map { _ in "<>&;/\"'!?[]-abc \n".randomElement(using: &generator)! }
        let garbage = try dir.write("noise.xspf", String(noise))
        let parsedNoise = try parser.parse(contentsOf: garbage)
        #expect(parsedNoise.entries.isEmpty)
    }

    @Test func hostileFilesHitClearLimits() throws {
        let dir = try ScratchDirectory()
        // A sparse 17 MiB file: refused from its size, without being read.
        let huge = dir.path("huge.m3u")
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 17 << 20) == 0)
        #expect(throws: PlaylistError.file(.tooLarge(path: huge, size: 17 << 20, limit: 16 << 20))) {
            try parser.parse(contentsOf: huge)
        }
        var generator = SystemRandomNumberGenerator()
        let binary = try dir.write("binary.m3u", bytes: [0x7F, 0x45, 0x4C, 0x46, 0] + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(throws: PlaylistError.notText(path: binary)) { try parser.parse(contentsOf: binary) }
        #expect(throws: PlaylistError.file(.missing(path: dir.path("none.m3u")))) { try parser.parse(contentsOf: dir.path("none.m3u")) }
        #expect(throws: PlaylistError.unknownFormat(path: dir.path("x.txt"))) { try parser.parse(contentsOf: dir.path("x.txt")) }

        let longLine = try dir.write("long.m3u", "ok.ogg\n" + String(repeating: "x", count: 9000) + ".ogg\nfine.ogg\n")
        let parsedLong = try parser.parse(contentsOf: longLine)
        #expect(parsedLong.entries.count == 2)
        #expect(parsedLong.problems.map(\.error) == [.uriTooLong(length: 9004, limit: 8192)])
        #expect(parsedLong.problems.first?.line == 2)

        let many = try dir.write("many.m3u", (0..<50).map { "t\($0).ogg" }.joined(separator: "\n"))
        let limited = PlaylistParser(limits: PlaylistLimits(maxEntries: 10))
        let parsedMany = try limited.parse(contentsOf: many)
        #expect(parsedMany.entries.count == 10)
        #expect(parsedMany.entries.last?.uri == FileURI.uri(forPath: dir.path("t9.ogg")))
        #expect(parsedMany.problems.map(\.error) == [.tooManyEntries(limit: 10)])
    }

    @Test func aFIFONamedLikeAPlaylistDoesNotHang() throws {
        let dir = try ScratchDirectory()
        let fifo = dir.path("pipe.m3u")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: PlaylistError.file(.notRegularFile(path: fifo))) { try parser.parse(contentsOf: fifo) }
    }

    @Test func nestedPlaylistsExpandInPlaceAndCyclesAreCut() throws {
        let dir = try ScratchDirectory()
        try dir.write("a.m3u", "a1.ogg\nb.pls\na2.ogg\n")
        try dir.write("b.pls", "[playlist]\nFile1=b1.ogg\nFile2=nested/c.xspf\nFile3=missing.m3u\n")
        try dir.write("nested/c.xspf", "<playlist><trackList><track><location>../a.m3u</location></track>"
            + "<track><location>c1.ogg</location></track><track><location>../self-link.m3u</location></track></trackList></playlist>")
        // Another spelling of a.m3u: the cycle must be recognised through the symlink.
        #expect(symlink(dir.path("a.m3u"), dir.path("self-link.m3u")) == 0)
        let parsed = try parser.parse(contentsOf: dir.path("a.m3u"))
        #expect(parsed.entries.map(\.uri) == ["a1.ogg", "b1.ogg", "nested/c1.ogg", "a2.ogg"].map { FileURI.uri(forPath: dir.path($0)) })
        #expect(parsed.problems.map(\.error) == [
            .cycle(path: dir.path("a.m3u")),
            .cycle(path: dir.path("self-link.m3u")),
            .file(.missing(path: dir.path("missing.m3u"))),
        ])
        #expect(parsed.problems[0].playlist == dir.path("nested/c.xspf"))
        #expect(parsed.problems[2].playlist == dir.path("b.pls") && parsed.problems[2].line == 4)
    }

    @Test func nestingDeeperThanTheLimitIsNotRead() throws {
        let dir = try ScratchDirectory()
        for level in 1...12 {
            try dir.write("l\(level).m3u", "track\(level).ogg\nl\(level + 1).m3u\n")
        }
        let parsed = try parser.parse(contentsOf: dir.path("l1.m3u"))
        #expect(parsed.entries.count == 8)
        #expect(parsed.problems.map(\.error) == [.nestingTooDeep(path: dir.path("l9.m3u"), limit: 8)])
    }
}
