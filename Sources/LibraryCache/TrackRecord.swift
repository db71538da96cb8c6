import Playback

/// A scanned track as the bytes of one cache row: a field number, then the value (strings as a
/// 32-bit length and UTF-8, numbers as 64-bit little-endian), one entry per set field and per
/// list element. Compact and quick to decode: a warm start decodes every track of a library.
/// The layout belongs to ``LibraryCache/schemaVersion``: a change bumps it.
enum TrackRecord {
    fileprivate enum Field: UInt8 {
        case duration = 1, title, artist, album, albumArtist, trackNumber, trackCount, discNumber, discCount
        case genre, date, composer, comment, lyrics, beatsPerMinute, tagDuration
        case trackGain, trackPeak, albumGain, albumPeak, referenceLevel, artURI, hasEmbeddedArt
    }

    static func encode(_ track: ScannedTrack) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        func string(_ field: Field, _ value: String?) {
            guard let value else { return }
            bytes.append(field.rawValue)
            let utf8 = Array(value.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes += $0 }
            bytes += utf8
        }
        func integer(_ field: Field, _ value: Int64?) {
            guard let value else { return }
            bytes.append(field.rawValue)
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        func double(_ field: Field, _ value: Double?) { integer(field, value.map { Int64(bitPattern: $0.bitPattern) }) }
        let metadata = track.metadata
        integer(.duration, track.durationMicroseconds)
        string(.title, metadata.title)
        metadata.artists.forEach { string(.artist, $0) }
        string(.album, metadata.album)
        metadata.albumArtists.forEach { string(.albumArtist, $0) }
        integer(.trackNumber, metadata.trackNumber.map(Int64.init))
        integer(.trackCount, metadata.trackCount.map(Int64.init))
        integer(.discNumber, metadata.discNumber.map(Int64.init))
        integer(.discCount, metadata.discCount.map(Int64.init))
        metadata.genres.forEach { string(.genre, $0) }
        string(.date, metadata.date)
        metadata.composers.forEach { string(.composer, $0) }
        string(.comment, metadata.comment)
        string(.lyrics, metadata.lyrics)
        double(.beatsPerMinute, metadata.beatsPerMinute)
        integer(.tagDuration, metadata.durationMicroseconds)
        double(.trackGain, metadata.replayGain.trackGain)
        double(.trackPeak, metadata.replayGain.trackPeak)
        double(.albumGain, metadata.replayGain.albumGain)
        double(.albumPeak, metadata.replayGain.albumPeak)
        double(.referenceLevel, metadata.replayGain.referenceLevel)
        string(.artURI, metadata.artURI)
        integer(.hasEmbeddedArt, metadata.hasEmbeddedArt.map { $0 ? 1 : 0 })
        return bytes
    }

    /// The track in `bytes` (its URI left empty for the caller); nil when they are not a record
    /// of this layout.
    static func decode(_ bytes: [UInt8]) -> ScannedTrack? {
        var track = ScannedTrack(uri: "", durationMicroseconds: nil, metadata: TrackMetadata())
        var offset = 0
        func word(_ width: Int) -> UInt64? {
            guard offset + width <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in 0..<width { value |= UInt64(bytes[offset + index]) << (8 * index) }
            offset += width
            return value
        }
        while offset < bytes.count {
            guard let field = Field(rawValue: bytes[offset]) else { return nil }
            offset += 1
            if field.holdsText {
                guard let length = word(4).map(Int.init), offset + length <= bytes.count else { return nil }
                let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
                offset += length
                assign(field, text: text, to: &track.metadata)
            } else {
                guard let raw = word(8) else { return nil }
                assign(field, number: Int64(bitPattern: raw), to: &track)
            }
        }
        return track
    }

    private static func assign(_ field: Field, text: String, to metadata: inout TrackMetadata) {
        switch field {
        case .title: metadata.title = text
        case .artist: metadata.artists.append(text)
        case .album: metadata.album = text
        case .albumArtist: metadata.albumArtists.append(text)
        case .genre: metadata.genres.append(text)
        case .date: metadata.date = text
        case .composer: metadata.composers.append(text)
        case .comment: metadata.comment = text
        case .lyrics: metadata.lyrics = text
        case .artURI: metadata.artURI = text
        default: break
        }
    }

    private static func assign(_ field: Field, number: Int64, to track: inout ScannedTrack) {
        let real = Double(bitPattern: UInt64(bitPattern: number))
        switch field {
        case .duration: track.durationMicroseconds = number
        case .trackNumber: track.metadata.trackNumber = Int(truncatingIfNeeded: number)
        case .trackCount: track.metadata.trackCount = Int(truncatingIfNeeded: number)
        case .discNumber: track.metadata.discNumber = Int(truncatingIfNeeded: number)
        case .discCount: track.metadata.discCount = Int(truncatingIfNeeded: number)
        case .beatsPerMinute: track.metadata.beatsPerMinute = real
        case .tagDuration: track.metadata.durationMicroseconds = number
        case .trackGain: track.metadata.replayGain.trackGain = real
        case .trackPeak: track.metadata.replayGain.trackPeak = real
        case .albumGain: track.metadata.replayGain.albumGain = real
        case .albumPeak: track.metadata.replayGain.albumPeak = real
        case .referenceLevel: track.metadata.replayGain.referenceLevel = real
        case .hasEmbeddedArt: track.metadata.hasEmbeddedArt = number != 0
        default: break
        }
    }
}

extension TrackRecord.Field {
    var holdsText: Bool {
        switch self {
        case .title, .artist, .album, .albumArtist, .genre, .date, .composer, .comment, .lyrics, .artURI: true
        default: false
        }
    }
}
