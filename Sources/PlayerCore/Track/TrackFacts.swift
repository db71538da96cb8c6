/// Everything known about one queue entry, gathered from the places that know something: a
/// playlist's hints, the scanner's tags, the engine's live tags, a sidecar lyrics file, and any
/// failure to play it. Adapters turn it into what they publish (MPRIS metadata, a notification).
public struct TrackFacts: Sendable, Hashable {
    /// Tags read from the file or stream.
    public var tags = TrackTags()
    /// The length, from the engine or the scanner (preferred to the tags').
    public var duration: Duration?
    /// A playlist's title for the entry (`#EXTINF`, XSPF `title`).
    public var hintTitle: String?
    /// A playlist's artist for the entry.
    public var hintArtist: String?
    /// The text of a sidecar lyrics file (LRC or plain), as read; adapters parse it.
    public var sidecarLyrics: String?
    /// Why the entry cannot be played; set once, and playback then skips it.
    public var failure: String?
    /// The scanner has read (or is reading) this entry.
    public var scanned = false
    /// The file's own tags and art were read (the scan answered, art decided once: embedded
    /// over a folder's cover). For a local file these are its settled facts: it is published
    /// and announced with them, and the engine's later reports of the same file change nothing.
    public var tagsRead = false

    /// Facts with a playlist's hints; `scannedTags` when the entry was read already.
    public init(hintTitle: String? = nil, hintArtist: String? = nil, duration: Duration? = nil, scannedTags: TrackTags? = nil,
                scannedDuration: Duration? = nil) {
        self.hintTitle = hintTitle
        self.hintArtist = hintArtist
        self.duration = duration
        if let scannedTags {
            merge(scannedTags, duration: scannedDuration)
            scanned = true
            tagsRead = true
        }
    }

    /// Adds what the scanner or the engine read; newer values win, absent ones keep the old.
    public mutating func merge(_ newer: TrackTags, duration newDuration: Duration? = nil) {
        tags = tags.merging(newer)
        if let newDuration, newDuration > .zero { duration = newDuration }
        if duration == nil, let fromTags = newer.duration, fromTags > .zero { duration = fromTags }
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
        if let authority = path.firstRange(of: "://") {
            // The path starts after the host; a URI without one names nothing to show.
            let afterHost = path[authority.upperBound...]
            guard let slash = afterHost.firstIndex(of: "/") else { return uri }
            path = afterHost[slash...]
        }
        while path.hasSuffix("/") { path = path.dropLast() }
        var name = path.split(separator: "/").last ?? ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        guard !name.isEmpty else { return uri }
        return PercentDecoding.decode(name) ?? String(name)
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
