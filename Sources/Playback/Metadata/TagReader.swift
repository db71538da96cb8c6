internal import CGStreamer

/// Converts GStreamer tag lists into ``TrackMetadata``, writing embedded cover art to the art
/// cache on the way.
struct TagReader: Sendable {
    let artCache: ArtCache

    func metadata(from list: UnsafePointer<GstTagList>) -> TrackMetadata {
        var metadata = TrackMetadata()
        metadata.title = strings(list, GST_TAG_TITLE).first
        metadata.artists = strings(list, GST_TAG_ARTIST)
        metadata.album = strings(list, GST_TAG_ALBUM).first
        metadata.albumArtists = strings(list, GST_TAG_ALBUM_ARTIST)
        metadata.trackNumber = unsigned(list, GST_TAG_TRACK_NUMBER)
        metadata.trackCount = unsigned(list, GST_TAG_TRACK_COUNT)
        metadata.discNumber = unsigned(list, GST_TAG_ALBUM_VOLUME_NUMBER)
        metadata.discCount = unsigned(list, GST_TAG_ALBUM_VOLUME_COUNT)
        metadata.genres = strings(list, GST_TAG_GENRE)
        metadata.date = date(list)
        metadata.composers = strings(list, GST_TAG_COMPOSER)
        metadata.comment = strings(list, GST_TAG_COMMENT).first
        metadata.lyrics = strings(list, GST_TAG_LYRICS).first
        metadata.beatsPerMinute = double(list, GST_TAG_BEATS_PER_MINUTE)
        var duration: guint64 = 0
        if gst_tag_list_get_uint64(list, GST_TAG_DURATION, &duration) != 0, duration != ClockTime.none {
            metadata.durationMicroseconds = Int64(duration / 1000)
        }
        metadata.replayGain = ReplayGain(
            trackGain: double(list, GST_TAG_TRACK_GAIN), trackPeak: double(list, GST_TAG_TRACK_PEAK),
            albumGain: double(list, GST_TAG_ALBUM_GAIN), albumPeak: double(list, GST_TAG_ALBUM_PEAK),
            referenceLevel: double(list, GST_TAG_REFERENCE_LEVEL))
        metadata.artURI = storedArt(list)
        return metadata
    }

    private func strings(_ list: UnsafePointer<GstTagList>, _ tag: String) -> [String] {
        let count = gst_tag_list_get_tag_size(list, tag)
        return (0..<count).compactMap { index in
            var value: UnsafePointer<gchar>?
            guard gst_tag_list_peek_string_index(list, tag, index, &value) != 0, let value else {
                return nil
            }
            let string = String(cString: value)
            return string.isEmpty ? nil : string
        }
    }

    private func unsigned(_ list: UnsafePointer<GstTagList>, _ tag: String) -> Int? {
        var value: guint = 0
        return gst_tag_list_get_uint(list, tag, &value) != 0 ? Int(value) : nil
    }

    private func double(_ list: UnsafePointer<GstTagList>, _ tag: String) -> Double? {
        var value: gdouble = 0
        return gst_tag_list_get_double(list, tag, &value) != 0 ? value : nil
    }

    /// Prefers the precise GstDateTime and falls back to the GDate that older taggers write.
    private func date(_ list: UnsafePointer<GstTagList>) -> String? {
        var dateTime: OpaquePointer?
        if gst_tag_list_get_date_time(list, GST_TAG_DATE_TIME, &dateTime) != 0, let dateTime {
            defer { gst_date_time_unref(dateTime) }
            if let iso = takeString(gst_date_time_to_iso8601_string(dateTime)) {
                return String(iso.prefix { $0 != "T" })
            }
        }
        var date: UnsafeMutablePointer<GDate>?
        guard gst_tag_list_get_date(list, GST_TAG_DATE, &date) != 0, let date else { return nil }
        defer { g_date_free(date) }
        guard g_date_valid(date) != 0 else { return nil }
        let year = Int(g_date_get_year(date))
        let month = Int(g_date_get_month(date).rawValue)
        let day = Int(g_date_get_day(date))
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    /// Writes the front cover (or else the first image, or else a preview image) to the cache.
    private func storedArt(_ list: UnsafePointer<GstTagList>) -> String? {
        for tag in [GST_TAG_IMAGE, GST_TAG_PREVIEW_IMAGE] {
            let count = gst_tag_list_get_tag_size(list, tag)
            guard count > 0 else { continue }
            let chosen = (0..<count).first { isFrontCover(list, tag, $0) } ?? 0
            var sample: OpaquePointer?
            guard gst_tag_list_get_sample_index(list, tag, chosen, &sample) != 0, let sample else {
                continue
            }
            defer { gst_sample_unref(sample) }
            guard let image = Self.image(in: sample) else { continue }
            return artCache.store(image.bytes, mediaType: image.mediaType)
        }
        return nil
    }

    private func isFrontCover(_ list: UnsafePointer<GstTagList>, _ tag: String, _ index: guint) -> Bool {
        var sample: OpaquePointer?
        guard gst_tag_list_get_sample_index(list, tag, index, &sample) != 0, let sample else {
            return false
        }
        defer { gst_sample_unref(sample) }
        guard let info = gst_sample_get_info(sample),
              let value = gst_structure_get_value(info, "image-type"),
              g_type_fundamental(value.pointee.g_type) == Self.enumFundamentalType
        else { return false }
        return g_value_get_enum(value) == Self.frontCover
    }

    /// GST_TAG_IMAGE_TYPE_FRONT_COVER lives in gst/tag, which the CGStreamer module neither
    /// includes nor links; the value is fixed by the ID3/FLAC picture types it mirrors.
    private static let frontCover: gint = 1
    /// G_TYPE_ENUM is a macro; its registered name is stable.
    private static let enumFundamentalType = g_type_from_name("GEnum")

    private static func image(in sample: OpaquePointer) -> (bytes: [UInt8], mediaType: String)? {
        guard let buffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample),
              let structure = gst_caps_get_structure(caps, 0),
              let name = gst_structure_get_name(structure)
        else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        guard let data = map.data else { return nil }
        return (Array(UnsafeBufferPointer(start: data, count: Int(map.size))), String(cString: name))
    }
}
