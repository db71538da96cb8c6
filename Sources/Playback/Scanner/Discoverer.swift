internal import CGStreamer

/// One synchronous GstDiscoverer, used by one scanner thread at a time.
final class Discoverer {
    private let discoverer: UnsafeMutablePointer<GstDiscoverer>?
    private let creationError: String?
    private let tagReader: TagReader

    init(timeoutNanoseconds: UInt64, tagReader: TagReader) {
        self.tagReader = tagReader
        var error: UnsafeMutablePointer<GError>?
        discoverer = gst_discoverer_new(GstClockTime(timeoutNanoseconds), &error)
        creationError = error.map { String(cString: $0.pointee.message) }
        if let error { g_error_free(error) }
    }

    deinit {
        if let discoverer { g_object_unref(UnsafeMutableRawPointer(discoverer)) }
    }

    func scan(_ uri: String) throws -> ScannedTrack {
        guard let discoverer else {
            throw PlaybackFailure(uri: uri, message: creationError ?? "Cannot create a discoverer")
        }
        var error: UnsafeMutablePointer<GError>?
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        let message = error.map { String(cString: $0.pointee.message) }
        if let error { g_error_free(error) }
        guard let info else {
            throw PlaybackFailure(uri: uri, message: message ?? "Cannot read this file")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        let result = gst_discoverer_info_get_result(info)
        guard result == GST_DISCOVERER_OK else {
            throw PlaybackFailure(uri: uri, message: message ?? Self.describe(result))
        }
        var metadata = TrackMetadata()
        for tags in tagLists(of: info) { metadata = metadata.merging(tagReader.metadata(from: tags)) }
        if metadata.artURI == nil { metadata.artURI = ArtCache.folderArt(nextTo: uri) }
        let duration = gst_discoverer_info_get_duration(info)
        return ScannedTrack(
            uri: uri,
            durationMicroseconds: duration == ClockTime.none ? nil : Int64(duration / 1000),
            metadata: metadata)
    }

    /// Container tags (ID3, FLAC and MP4 metadata) first, then the first audio stream's tags
    /// (Vorbis comments live there), so stream tags win where both exist.
    private func tagLists(of info: OpaquePointer) -> [UnsafePointer<GstTagList>] {
        var lists: [UnsafePointer<GstTagList>] = []
        if let top = gst_discoverer_info_get_stream_info(info) {
            if linnet_gst_is_container_info(top) != 0, let tags = gst_discoverer_container_info_get_tags(top) {
                lists.append(tags)
            }
            g_object_unref(UnsafeMutableRawPointer(top))
        }
        if let streams = gst_discoverer_info_get_audio_streams(info) {
            if let first = streams.pointee.data,
               let tags = gst_discoverer_stream_info_get_tags(OpaquePointer(first)) {
                lists.append(tags)
            }
            gst_discoverer_stream_info_list_free(streams)
        }
        // The lists belong to stream infos that `info` keeps alive until the caller unrefs it.
        return lists
    }

    private static func describe(_ result: GstDiscovererResult) -> String {
        switch result {
        case GST_DISCOVERER_URI_INVALID: "Invalid URI"
        case GST_DISCOVERER_TIMEOUT: "Timed out reading the file"
        case GST_DISCOVERER_MISSING_PLUGINS: "No decoder is installed for this format"
        case GST_DISCOVERER_BUSY: "The scanner was busy"
        default: "Cannot read this file"
        }
    }
}
