import Foundation
import MPRIS
import Playback

/// Everything known about one queue entry, gathered from the places that know something: a
/// playlist's hints, the scanner's tags, the engine's live tags, a sidecar lyrics file, and
/// any failure to play it. Turned into MPRIS metadata in one place.
struct TrackInfo: Sendable, Equatable {
    var tags = TrackMetadata()
    var duration: Int64?
    var hintTitle: String?
    var hintArtist: String?
    /// Lyrics from a `.lrc`/`.txt` next to the file; the synced lines are kept for a future
    /// lyrics display, MPRIS gets the plain text.
    var sidecarLyrics: Lyrics?
    var failure: String?
    /// The scanner has read (or is reading) this entry.
    var scanned = false

    /// What a resolved item already tells: playlist hints, and tags if the resolver scanned it.
    init(item: PlayableItem) {
        hintTitle = item.title
        hintArtist = item.artist
        duration = item.durationMicroseconds
        if let scanned = item.scanned {
            merge(scanned.metadata, duration: scanned.durationMicroseconds)
            self.scanned = true
        }
    }

    /// Creates empty info.
    init() {}

    /// Adds what the scanner or the engine read; newer values win, absent ones keep the old.
    mutating func merge(_ newer: TrackMetadata, duration newDuration: Int64? = nil) {
        tags = tags.merging(newer)
        if let newDuration, newDuration > 0 { duration = newDuration }
        if duration == nil, let fromTags = newer.durationMicroseconds, fromTags > 0 { duration = fromTags }
    }

    /// The MPRIS metadata map for `entry`, typed as clients need it.
    func metadata(for entry: QueueEntry) -> Metadata {
        var metadata = Metadata(trackID: TrackID.forEntry(entry.id))
        metadata.title = tags.title ?? hintTitle ?? Self.fallbackTitle(for: entry.uri)
        metadata.artists = tags.artists.isEmpty ? (hintArtist.map { [$0] } ?? []) : tags.artists
        metadata.album = tags.album
        metadata.albumArtists = tags.albumArtists
        metadata.length = duration ?? tags.durationMicroseconds
        metadata.trackNumber = tags.trackNumber.map { Int32(clamping: $0) }
        metadata.discNumber = tags.discNumber.map { Int32(clamping: $0) }
        metadata.genres = tags.genres
        metadata.composers = tags.composers
        metadata.comments = tags.comment.map { [$0] } ?? []
        metadata.contentCreated = tags.date
        metadata.lyrics = tags.lyrics ?? sidecarLyrics?.plainText
        // Tag values come from untrusted files: a NaN or huge BPM must not trap.
        metadata.beatsPerMinute = tags.beatsPerMinute.flatMap { $0.isFinite ? Int32(exactly: $0.rounded()) : nil }
        metadata.artURL = tags.artURI
        metadata.url = entry.uri
        if let failure { metadata.extra["linnet:error"] = .string(failure) }
        return metadata
    }

    /// A readable title before any tag is known: the file name without extension, or the URI.
    static func fallbackTitle(for uri: String) -> String {
        guard let url = URL(string: uri) else { return uri }
        let name = url.deletingPathExtension().lastPathComponent
        return name.isEmpty || name == "/" ? uri : (name.removingPercentEncoding ?? name)
    }
}

extension TrackID {
    /// The bus id of queue entry `id`: `/org/linnet/track/<id>`.
    static func forEntry(_ id: UInt64) -> TrackID {
        TrackID("/org/linnet/track/\(id)")!
    }

    /// The queue entry id a bus track id names, if it is one of ours.
    var entryID: UInt64? {
        let prefix = "/org/linnet/track/"
        guard path.rawValue.hasPrefix(prefix) else { return nil }
        return UInt64(path.rawValue.dropFirst(prefix.count))
    }
}
