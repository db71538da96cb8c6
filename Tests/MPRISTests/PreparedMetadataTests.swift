import DBus
import MPRIS
import Testing

/// `Metadata.prepared` (GetTracksMetadata's rows) is the same map as ``Metadata/write(to:)``
/// (the Metadata property) and ``Metadata/dbusValue`` (signals).
@Suite struct PreparedMetadataTests {
    /// Every key linnet knows, with non-ASCII and empty values, and extra keys.
    static func fullyTagged() -> Metadata {
        var metadata = Metadata(
            trackID: TrackID("/org/linnet/test/track/42")!, title: "Für Elise — 東京 ♫",
            artists: ["Ludwig", ""], album: "", length: 214_000_000)
        metadata.artURL = "file:///music/%C3%BC/cover.jpg"
        metadata.albumArtists = ["Bärbel"]
        metadata.trackNumber = -1
        metadata.discNumber = 2
        metadata.genres = ["Klassik", "Piano"]
        metadata.composers = ["Beethoven"]
        metadata.lyricists = ["—"]
        metadata.comments = [""]
        metadata.contentCreated = "1810-04-27"
        metadata.lyrics = "première ligne\nzweite Zeile"
        metadata.beatsPerMinute = 72
        metadata.autoRating = 0.5
        metadata.userRating = 1
        metadata.useCount = 3
        metadata.firstUsed = "2026-01-01T00:00:00Z"
        metadata.lastUsed = ""
        metadata.url = "file:///music/f%C3%BCr-elise.ogg"
        metadata.extra["linnet:error"] = .string("décodage impossible")
        metadata.extra["a:first"] = .array(.int32, [.int32(1)])
        return metadata
    }

    @Test(arguments: [
        fullyTagged(), Metadata(), Metadata(trackID: .noTrack, title: "Pomodoro"),
        Metadata(trackID: TrackID("/org/linnet/test/whole")!, title: ""),
    ])
    func preparedIsTheSameMapAsTheProperty(_ metadata: Metadata) throws {
        let prepared = try DBusMessageWriter.scratchBodyValues { $0.append(metadata.prepared) }
        let property = try DBusMessageWriter.scratchBodyValues { metadata.write(to: &$0) }
        #expect(prepared == property)
        #expect(prepared == [metadata.dbusValue])
    }
}
