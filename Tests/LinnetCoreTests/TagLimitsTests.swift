@testable import LinnetCore
import Playback
import PlayerCore
import Testing

/// A file's tags are its maker's words: oversized ones are cut before they reach the queue and
/// the bus, and real-sized ones pass untouched.
@Suite struct TagLimitsTests {
    @Test func oversizedTagsAreCutAndRealOnesPassUntouched() throws {
        var metadata = TrackMetadata()
        metadata.title = String(repeating: "é", count: 1_000_000)  // 2 MB of two-byte characters
        metadata.album = "Album"
        metadata.artists = (0..<5_000).map { "Artist \($0)" }
        metadata.genres = [String(repeating: "g", count: 100_000)]
        metadata.lyrics = String(repeating: "la ", count: 1_000_000)
        metadata.comment = "🎵" + String(repeating: "x", count: TagLimits.textBytes)

        let tags = TrackTags(metadata)
        let title = try #require(tags.title)
        #expect(title.utf8.count <= TagLimits.textBytes && title.utf8.count >= TagLimits.textBytes - 1)
        #expect(title.allSatisfy { $0 == "é" })
        #expect(tags.album == "Album")
        #expect(tags.artists.count == TagLimits.listEntries && tags.artists.first == "Artist 0")
        #expect(tags.genres.count == 1 && tags.genres[0].utf8.count == TagLimits.entryBytes)
        #expect(tags.lyrics.map { $0.utf8.count <= TagLimits.lyricsBytes && $0.hasPrefix("la la") } == true)
        #expect(tags.comment.map { $0.hasPrefix("🎵") && $0.utf8.count <= TagLimits.textBytes } == true)
    }

    @Test func realTagsAreKeptAsRead() {
        var metadata = TrackMetadata()
        metadata.title = "Über Café — 夜"
        metadata.artists = ["A", "B"]
        metadata.lyrics = "[00:01.00]line one\n[00:02.00]line two"
        let tags = TrackTags(metadata)
        #expect(tags.title == metadata.title)
        #expect(tags.artists == metadata.artists)
        #expect(tags.lyrics == metadata.lyrics)
    }
}
