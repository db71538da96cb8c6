/// Everything known about one queue entry, gathered from the places that know something: a
/// playlist's hints, the scanner's tags, the engine's live tags, a sidecar lyrics file, and any
/// failure to play it. Adapters turn it into what they publish (MPRIS metadata, a notification).
public struct TrackFacts: Sendable, Hashable {
    /// The stored values. A queue holds one ``TrackFacts`` per entry (100 000 of them in a large
    /// queue), so the struct is one reference to an immutable box: a table of facts then
    /// costs a pointer per entry, and entries that know nothing share one box. A change makes a
    /// new box (changes are rare: a scan, a failure). The box holds what most entries have
    /// (hints, a length, tags, which cost a nil reference while unknown); the fields few entries
    /// ever get sit in a second box, so a playlist entry's box is ~90 bytes.
    private var box: Box

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
        static let empty = Box(Fields())
    }

    private struct Fields: Sendable, Hashable {
        var tags = TrackTags()
        var duration: Duration?
        var hintTitle: String?
        var hintArtist: String?
        var rare: Rare?
        var scanned = false
        var tagsRead = false

        var sidecarLyrics: String? {
            get { rare?.values.sidecarLyrics }
            set { setRare { $0.sidecarLyrics = newValue } }
        }
        var failure: String? {
            get { rare?.values.failure }
            set { setRare { $0.failure = newValue } }
        }

        private mutating func setRare(_ change: (inout RareValues) -> Void) {
            var values = rare?.values ?? RareValues()
            change(&values)
            rare = values == RareValues() ? nil : Rare(values)
        }

        mutating func merge(_ newer: TrackTags, duration newDuration: Duration?) {
            tags = tags.merging(newer)
            if let newDuration, newDuration > .zero { duration = newDuration }
            if duration == nil, let fromTags = newer.duration, fromTags > .zero { duration = fromTags }
        }
    }

    private struct RareValues: Sendable, Hashable {
        var sidecarLyrics: String?
        var failure: String?
    }

    private final class Rare: Sendable, Hashable {
        let values: RareValues
        init(_ values: RareValues) { self.values = values }
        static func == (lhs: Rare, rhs: Rare) -> Bool { lhs === rhs || lhs.values == rhs.values }
        func hash(into hasher: inout Hasher) { hasher.combine(values) }
    }

    private var fields: Fields {
        get { box.fields }
        set { box = Box(newValue) }
    }

    /// Tags read from the file or stream.
    public var tags: TrackTags {
        get { fields.tags }
        set { fields.tags = newValue }
    }
    /// The length, from the engine or the scanner (preferred to the tags').
    public var duration: Duration? {
        get { fields.duration }
        set { fields.duration = newValue }
    }
    /// A playlist's title for the entry (`#EXTINF`, XSPF `title`).
    public var hintTitle: String? {
        get { fields.hintTitle }
        set { fields.hintTitle = newValue }
    }
    /// A playlist's artist for the entry.
    public var hintArtist: String? {
        get { fields.hintArtist }
        set { fields.hintArtist = newValue }
    }
    /// The text of a sidecar lyrics file (LRC or plain), as read; adapters parse it.
    public var sidecarLyrics: String? {
        get { fields.sidecarLyrics }
        set { fields.sidecarLyrics = newValue }
    }
    /// Why the entry cannot be played; set once, and playback then skips it.
    public var failure: String? {
        get { fields.failure }
        set { fields.failure = newValue }
    }
    /// The scanner has read (or is reading) this entry.
    public var scanned: Bool {
        get { fields.scanned }
        set { fields.scanned = newValue }
    }
    /// The file's own tags and art were read (the scan answered, art decided once: embedded
    /// over a folder's cover). For a local file these are its settled facts: it is published
    /// and announced with them, and the engine's later reports of the same file change nothing.
    public var tagsRead: Bool {
        get { fields.tagsRead }
        set { fields.tagsRead = newValue }
    }

    public static func == (lhs: TrackFacts, rhs: TrackFacts) -> Bool {
        lhs.box === rhs.box || lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    /// Facts with a playlist's hints; `scannedTags` (and the lyrics file beside it) when the
    /// entry was read already.
    public init(hintTitle: String? = nil, hintArtist: String? = nil, duration: Duration? = nil, scannedTags: TrackTags? = nil,
                scannedDuration: Duration? = nil, sidecarLyrics: String? = nil) {
        guard hintTitle != nil || hintArtist != nil || duration != nil || scannedTags != nil else {
            box = .empty
            return
        }
        var fields = Fields(hintTitle: hintTitle, hintArtist: hintArtist)
        fields.duration = duration
        if let scannedTags {
            fields.merge(scannedTags, duration: scannedDuration)
            fields.scanned = true
            fields.tagsRead = true
            fields.sidecarLyrics = sidecarLyrics
        }
        box = Box(fields)
    }

    /// Adds what the scanner or the engine read; newer values win, absent ones keep the old.
    public mutating func merge(_ newer: TrackTags, duration newDuration: Duration? = nil) {
        var changed = fields
        changed.merge(newer, duration: newDuration)
        fields = changed
    }

    /// The title to show: the tags', the playlist's, or one made from `uri`.
    public func title(for uri: String) -> String {
        tags.title ?? hintTitle ?? Self.fallbackTitle(for: uri)
    }

    /// The artists to show: the tags', else the playlist's.
    public var artists: [String] {
        tags.artists.isEmpty ? (hintArtist.map { [$0] } ?? []) : tags.artists
    }

    /// The length to show.
    public var length: Duration? { duration ?? tags.duration }

    /// The lyrics to show: the tags', else a sidecar file's.
    public var lyrics: String? { tags.lyrics ?? sidecarLyrics }

    /// A readable title before any tag is known: the last path segment without its extension,
    /// percent-decoded, or the URI itself when that leaves nothing.
    public static func fallbackTitle(for uri: String) -> String {
        var path = Substring(uri)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        if let authorityStart = Self.indexAfterSchemeSeparator(in: path) {
            // The path starts after the host; a URI without one names nothing to show.
            let afterHost = path[authorityStart...]
            guard let slash = afterHost.firstIndex(of: "/") else { return uri }
            path = afterHost[slash...]
        }
        while path.hasSuffix("/") { path = path.dropLast() }
        var name = path.split(separator: "/").last ?? ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        guard !name.isEmpty else { return uri }
        return PercentDecoding.decode(name) ?? String(name)
    }

    /// Where the text after the first `://` in `text` starts, or nil without one. Searched with
    /// the standard library's own calls rather than `firstRange(of:)`, a generic algorithm of
    /// _StringProcessing whose code every track load would otherwise keep mapped.
    private static func indexAfterSchemeSeparator(in text: Substring) -> Substring.Index? {
        var rest = text[...]
        while let colon = rest.firstIndex(of: ":") {
            let after = rest[colon...]
            if after.hasPrefix("://") { return after.index(colon, offsetBy: 3) }
            rest = rest[rest.index(after: colon)...]
        }
        return nil
    }
}

/// Percent-decoding of URI segments without Foundation.
enum PercentDecoding {
    /// `text` with `%XX` escapes decoded; nil when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
