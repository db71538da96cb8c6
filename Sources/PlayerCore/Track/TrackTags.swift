/// The tags of one track that the player publishes, as plain values. Whoever reads files or
/// streams (the scanner, the engine) fills them in; nil or empty means "not known".
///
/// A queue holds one per entry, and most entries of a large queue (streams, playlist entries,
/// files not scanned yet) have no tags at all: those cost one nil reference. The fields live in
/// a copy-on-write box made at the first tag set (~200 bytes inline were paid by every entry).
public struct TrackTags: Sendable, Hashable {
    private var storage: Storage?

    /// Track title.
    public var title: String? {
        get { storage?.fields.title }
        set { update { $0.title = newValue } }
    }
    /// Performing artists, in tag order.
    public var artists: [String] {
        get { storage?.fields.artists ?? [] }
        set { update { $0.artists = newValue } }
    }
    /// Album title.
    public var album: String? {
        get { storage?.fields.album }
        set { update { $0.album = newValue } }
    }
    /// Album artists, in tag order.
    public var albumArtists: [String] {
        get { storage?.fields.albumArtists ?? [] }
        set { update { $0.albumArtists = newValue } }
    }
    /// Position on its disc, from 1.
    public var trackNumber: Int? {
        get { storage?.fields.trackNumber }
        set { update { $0.trackNumber = newValue } }
    }
    /// Disc number, from 1.
    public var discNumber: Int? {
        get { storage?.fields.discNumber }
        set { update { $0.discNumber = newValue } }
    }
    /// Genres, in tag order.
    public var genres: [String] {
        get { storage?.fields.genres ?? [] }
        set { update { $0.genres = newValue } }
    }
    /// Composers, in tag order.
    public var composers: [String] {
        get { storage?.fields.composers ?? [] }
        set { update { $0.composers = newValue } }
    }
    /// Free-form comment.
    public var comment: String? {
        get { storage?.fields.comment }
        set { update { $0.comment = newValue } }
    }
    /// Release date as an ISO 8601 prefix.
    public var date: String? {
        get { storage?.fields.date }
        set { update { $0.date = newValue } }
    }
    /// Unsynchronised lyrics.
    public var lyrics: String? {
        get { storage?.fields.lyrics }
        set { update { $0.lyrics = newValue } }
    }
    /// Tempo in beats per minute, as the file says (untrusted: may be NaN or huge).
    public var beatsPerMinute: Double? {
        get { storage?.fields.beatsPerMinute }
        set { update { $0.beatsPerMinute = newValue } }
    }
    /// Length from the tags.
    public var duration: Duration? {
        get { storage?.fields.duration }
        set { update { $0.duration = newValue } }
    }
    /// A `file://` URI of the cover art.
    public var artURI: String? {
        get { storage?.fields.artURI }
        set { update { $0.artURI = newValue } }
    }

    /// No tags.
    public init() {}

    /// These tags with every field that `newer` sets taken from `newer`.
    public func merging(_ newer: TrackTags) -> TrackTags {
        guard let newerStorage = newer.storage else { return self }
        guard let storage else { return newer }
        let old = storage.fields, new = newerStorage.fields
        var merged = old
        merged.title = new.title ?? old.title
        merged.artists = new.artists.isEmpty ? old.artists : new.artists
        merged.album = new.album ?? old.album
        merged.albumArtists = new.albumArtists.isEmpty ? old.albumArtists : new.albumArtists
        merged.trackNumber = new.trackNumber ?? old.trackNumber
        merged.discNumber = new.discNumber ?? old.discNumber
        merged.genres = new.genres.isEmpty ? old.genres : new.genres
        merged.composers = new.composers.isEmpty ? old.composers : new.composers
        merged.comment = new.comment ?? old.comment
        merged.date = new.date ?? old.date
        merged.lyrics = new.lyrics ?? old.lyrics
        merged.beatsPerMinute = new.beatsPerMinute ?? old.beatsPerMinute
        merged.duration = new.duration ?? old.duration
        merged.artURI = new.artURI ?? old.artURI
        var result = TrackTags()
        result.storage = Storage(merged)
        return result
    }

    public static func == (lhs: TrackTags, rhs: TrackTags) -> Bool {
        lhs.storage === rhs.storage || lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    // MARK: - Storage

    private struct Fields: Sendable, Hashable {
        var title: String?
        var artists: [String] = []
        var album: String?
        var albumArtists: [String] = []
        var trackNumber: Int?
        var discNumber: Int?
        var genres: [String] = []
        var composers: [String] = []
        var comment: String?
        var date: String?
        var lyrics: String?
        var beatsPerMinute: Double?
        var duration: Duration?
        var artURI: String?
    }

    /// Mutable, but only while uniquely referenced (``update(_:)`` copies a shared box first),
    /// so a box another value or thread can see is never written: that makes it Sendable.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var fields: Fields { storage?.fields ?? Fields() }

    private mutating func update(_ change: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(fields) }
        if let storage { change(&storage.fields) }
    }
}
