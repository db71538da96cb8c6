/// The tags of one track as typed values, read from GStreamer tag lists.
///
/// Fields are nil or empty when the file does not carry them. ``artURI`` points at a local copy of
/// embedded cover art in the art cache, or at cover art found next to the file.
public struct TrackMetadata: Sendable, Hashable {
    /// Track title.
    public var title: String?
    /// Performing artists, in tag order.
    public var artists: [String] = []
    /// Album title.
    public var album: String?
    /// Album artists, in tag order.
    public var albumArtists: [String] = []
    /// Position of the track on its disc, from 1.
    public var trackNumber: Int?
    /// Number of tracks on the disc.
    public var trackCount: Int?
    /// Disc number, from 1.
    public var discNumber: Int?
    /// Number of discs in the set.
    public var discCount: Int?
    /// Genres, in tag order.
    public var genres: [String] = []
    /// Release date as an ISO 8601 prefix: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    public var date: String?
    /// Composers, in tag order.
    public var composers: [String] = []
    /// Free-form comment.
    public var comment: String?
    /// Unsynchronised lyrics.
    public var lyrics: String?
    /// Tempo in beats per minute.
    public var beatsPerMinute: Double?
    /// Length from the tags in microseconds (the engine's duration query is authoritative).
    public var durationMicroseconds: Int64?
    /// ReplayGain values, when the file was analysed.
    public var replayGain = ReplayGain()
    /// A `file://` URI of the cover art, if any.
    public var artURI: String?
    /// Whether the file carries pictures of its own; nil when the reader cannot tell (GStreamer).
    public var hasEmbeddedArt: Bool?

    /// Empty metadata.
    public init() {}

    /// Whether no field is set.
    public var isEmpty: Bool { self == TrackMetadata() }

    /// This metadata with every field that `newer` sets taken from `newer`.
    public func merging(_ newer: TrackMetadata) -> TrackMetadata {
        var merged = self
        merged.title = newer.title ?? title
        merged.artists = newer.artists.isEmpty ? artists : newer.artists
        merged.album = newer.album ?? album
        merged.albumArtists = newer.albumArtists.isEmpty ? albumArtists : newer.albumArtists
        merged.trackNumber = newer.trackNumber ?? trackNumber
        merged.trackCount = newer.trackCount ?? trackCount
        merged.discNumber = newer.discNumber ?? discNumber
        merged.discCount = newer.discCount ?? discCount
        merged.genres = newer.genres.isEmpty ? genres : newer.genres
        merged.date = newer.date ?? date
        merged.composers = newer.composers.isEmpty ? composers : newer.composers
        merged.comment = newer.comment ?? comment
        merged.lyrics = newer.lyrics ?? lyrics
        merged.beatsPerMinute = newer.beatsPerMinute ?? beatsPerMinute
        merged.durationMicroseconds = newer.durationMicroseconds ?? durationMicroseconds
        merged.replayGain = replayGain.merging(newer.replayGain)
        merged.artURI = newer.artURI ?? artURI
        merged.hasEmbeddedArt = newer.hasEmbeddedArt ?? hasEmbeddedArt
        return merged
    }
}

/// ReplayGain analysis values from a track's tags.
public struct ReplayGain: Sendable, Hashable {
    /// Track gain in dB.
    public var trackGain: Double?
    /// Track peak, linear (1.0 is full scale).
    public var trackPeak: Double?
    /// Album gain in dB.
    public var albumGain: Double?
    /// Album peak, linear.
    public var albumPeak: Double?
    /// Reference level in dB SPL the gains were computed for.
    public var referenceLevel: Double?

    /// No ReplayGain values.
    public init(
        trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil,
        albumPeak: Double? = nil, referenceLevel: Double? = nil
    ) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
        self.referenceLevel = referenceLevel
    }

    /// These values with every one that `newer` sets taken from `newer`.
    public func merging(_ newer: ReplayGain) -> ReplayGain {
        ReplayGain(
            trackGain: newer.trackGain ?? trackGain, trackPeak: newer.trackPeak ?? trackPeak,
            albumGain: newer.albumGain ?? albumGain, albumPeak: newer.albumPeak ?? albumPeak,
            referenceLevel: newer.referenceLevel ?? referenceLevel)
    }
}
