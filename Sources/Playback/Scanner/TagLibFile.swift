internal import CTagLibShim

/// Reads a local file's tags, length and embedded art with TagLib: no pipeline, no decoder, a few
/// reads of the file's header and tag blocks.
enum TagLibFile {
    /// The largest embedded picture stored as the track's art.
    static let largestPicture = 16 * 1024 * 1024

    /// The tags of the file at `path`, with embedded art stored in `artCache`; nil when TagLib
    /// cannot open or parse it (then GStreamer, which plays it, gets to judge it).
    static func read(path: String, uri: String, artCache: ArtCache) -> ScannedTrack? {
        // TagLib is closed again while no read is in progress (UnloadableLibrary).
        UnloadableLibrary.taglib.beginUse()
        defer { UnloadableLibrary.taglib.endUse() }
        guard let tags = linnet_taglib_read(path) else { return nil }
        defer { linnet_taglib_free(tags) }
        var properties = PropertyMap()
        for index in 0..<linnet_taglib_count(tags) {
            properties.add(key: String(cString: linnet_taglib_key(tags, index)),
                           value: String(cString: linnet_taglib_value(tags, index)))
        }
        var metadata = properties.metadata()
        let lengthMilliseconds = linnet_taglib_length_ms(tags)
        let duration = lengthMilliseconds > 0 ? lengthMilliseconds * 1000 : nil
        metadata.durationMicroseconds = duration
        let pictures = linnet_taglib_picture_count(tags)
        metadata.hasEmbeddedArt = pictures > 0
        var size = 0
        // Cover art is a few hundred KiB; a larger "picture" is not worth a copy in the art cache.
        if let bytes = linnet_taglib_picture(tags, &size), size > 0, size <= Self.largestPicture {
            let image = Array(UnsafeBufferPointer(start: bytes, count: size))
            // The bytes say what they are; a tag's MIME text is whatever its writer put there
            // (GStreamer typefinds too, so both readers name one image's file alike).
            let declared = String(cString: linnet_taglib_picture_type(tags))
            metadata.artURI = artCache.store(image, mediaType: Self.sniffedType(image) ?? declared)
        }
        return ScannedTrack(uri: uri, durationMicroseconds: duration, metadata: metadata)
    }

    /// The image type its first bytes announce, for the formats art comes in.
    static func sniffedType(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF8".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("BM".utf8)) { return "image/bmp" }
        return nil
    }
}

/// TagLib's property map (upper-case keys, several values per key) turned into typed fields.
struct PropertyMap {
    private(set) var values: [String: [String]] = [:]

    mutating func add(key: String, value: String) {
        guard !value.isEmpty else { return }
        values[key, default: []].append(value)
    }

    func metadata() -> TrackMetadata {
        var metadata = TrackMetadata()
        metadata.title = first("TITLE")
        metadata.artists = values["ARTIST"] ?? []
        metadata.album = first("ALBUM")
        metadata.albumArtists = values["ALBUMARTIST"] ?? []
        let track = Self.numberPair(first("TRACKNUMBER"))
        metadata.trackNumber = track.number
        metadata.trackCount = track.count ?? Self.integer(first("TRACKTOTAL") ?? first("TOTALTRACKS"))
        let disc = Self.numberPair(first("DISCNUMBER"))
        metadata.discNumber = disc.number
        metadata.discCount = disc.count ?? Self.integer(first("DISCTOTAL") ?? first("TOTALDISCS"))
        metadata.genres = values["GENRE"] ?? []
        metadata.date = Self.isoDate(first("DATE") ?? first("ORIGINALDATE"))
        metadata.composers = values["COMPOSER"] ?? []
        metadata.comment = first("COMMENT") ?? first("DESCRIPTION")
        metadata.lyrics = first("LYRICS") ?? first("UNSYNCEDLYRICS")
        metadata.beatsPerMinute = Self.decimal(first("BPM"))
        metadata.replayGain = ReplayGain(
            trackGain: Self.decimal(first("REPLAYGAIN_TRACK_GAIN")),
            trackPeak: Self.decimal(first("REPLAYGAIN_TRACK_PEAK")),
            albumGain: Self.decimal(first("REPLAYGAIN_ALBUM_GAIN")),
            albumPeak: Self.decimal(first("REPLAYGAIN_ALBUM_PEAK")),
            referenceLevel: Self.decimal(first("REPLAYGAIN_REFERENCE_LOUDNESS")))
        return metadata
    }

    private func first(_ key: String) -> String? { values[key]?.first }

    /// "3", "3/12" or " 3 / 12 " → (3, 12); zero or garbage → nil.
    static func numberPair(_ text: String?) -> (number: Int?, count: Int?) {
        guard let text else { return (nil, nil) }
        let parts = text.split(separator: "/", maxSplits: 1)
        return (integer(parts.first.map(String.init)), parts.count > 1 ? integer(String(parts[1])) : nil)
    }

    static func integer(_ text: String?) -> Int? {
        guard let text, let value = Int(text.filter { $0 != " " }), value > 0 else { return nil }
        return value
    }

    /// The leading number of "-6.50 dB", "0.988", "+1.2"; nil when there is none.
    static func decimal(_ text: String?) -> Double? {
        guard let text else { return nil }
        let number = text.drop { $0 == " " }.prefix { "+-.0123456789eE".contains($0) }
        guard let value = Double(number), value.isFinite else { return nil }
        return value
    }

    /// "2021-03-04T10:00", "2021-03", "2021" → their date part; nil unless it starts with a year.
    static func isoDate(_ text: String?) -> String? {
        guard let text else { return nil }
        let date = text.prefix { $0 != "T" && $0 != " " }
        guard date.count >= 4, date.prefix(4).allSatisfy(\.isNumber) else { return nil }
        return String(date)
    }
}
