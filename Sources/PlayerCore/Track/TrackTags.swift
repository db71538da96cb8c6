/// The tags of one track that the player publishes, as plain values. Whoever reads files or
/// streams (the scanner, the engine) fills them in; nil or empty means "not known".
public struct TrackTags: Sendable, Hashable {
    /// Track title.
    public var title: String?
    /// Performing artists, in tag order.
    public var artists: [String] = []
    /// Album title.
    public var album: String?
    /// Album artists, in tag order.
    public var albumArtists: [String] = []
    /// Position on its disc, from 1.
    public var trackNumber: Int?
    /// Disc number, from 1.
    public var discNumber: Int?
    /// Genres, in tag order.
    public var genres: [String] = []
    /// Composers, in tag order.
    public var composers: [String] = []
    /// Free-form comment.
    public var comment: String?
    /// Release date as an ISO 8601 prefix.
    public var date: String?
    /// Unsynchronised lyrics.
    public var lyrics: String?
    /// Tempo in beats per minute, as the file says (untrusted: may be NaN or huge).
    public var beatsPerMinute: Double?
    /// Length from the tags.
    public var duration: Duration?
    /// A `file://` URI of the cover art.
    public var artURI: String?

    /// No tags.
    public init() {}

    /// These tags with every field that `newer` sets taken from `newer`.
    public func merging(_ newer: TrackTags) -> TrackTags {
        var merged = self
        merged.title = newer.title ?? title
        merged.artists = newer.artists.isEmpty ? artists : newer.artists
        merged.album = newer.album ?? album
        merged.albumArtists = newer.albumArtists.isEmpty ? albumArtists : newer.albumArtists
        merged.trackNumber = newer.trackNumber ?? trackNumber
        merged.discNumber = newer.discNumber ?? discNumber
        merged.genres = newer.genres.isEmpty ? genres : newer.genres
        merged.composers = newer.composers.isEmpty ? composers : newer.composers
        merged.comment = newer.comment ?? comment
        merged.date = newer.date ?? date
        merged.lyrics = newer.lyrics ?? lyrics
        merged.beatsPerMinute = newer.beatsPerMinute ?? beatsPerMinute
        merged.duration = newer.duration ?? duration
        merged.artURI = newer.artURI ?? artURI
        return merged
    }
}
