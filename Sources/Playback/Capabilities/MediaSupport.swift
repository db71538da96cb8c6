internal import CGStreamer

/// What this machine's GStreamer installation can actually play, for MPRIS's
/// `SupportedMimeTypes` and `SupportedUriSchemes`.
public enum MediaSupport {
    /// Each MIME type a player advertises, with the GStreamer elements that decode it; a type
    /// counts as supported when any one of its elements is installed.
    static let decoders: [(mimeType: String, elements: [String])] = [
        ("audio/ogg", ["oggdemux"]),
        ("audio/x-vorbis+ogg", ["vorbisdec"]),
        ("audio/vorbis", ["vorbisdec"]),
        ("audio/opus", ["opusdec"]),
        ("audio/flac", ["flacdec"]),
        ("audio/x-flac", ["flacdec"]),
        ("audio/mpeg", ["mpg123audiodec", "avdec_mp3", "mad"]),
        ("audio/x-wav", ["wavparse"]),
        ("audio/wav", ["wavparse"]),
        ("audio/aac", ["avdec_aac", "faad", "fdkaacdec"]),
        ("audio/mp4", ["qtdemux"]),
        ("audio/x-m4a", ["qtdemux"]),
        ("audio/x-matroska", ["matroskademux"]),
        ("audio/webm", ["matroskademux"]),
        ("audio/x-wavpack", ["wavpackdec"]),
        ("audio/x-ape", ["avdec_ape"]),
        ("audio/x-aiff", ["aiffparse"]),
        ("audio/x-speex", ["speexdec"]),
        ("audio/x-mpegurl", ["playbin"]),
    ]

    /// The MIME types some installed element can decode, in a stable order.
    public static func supportedMIMETypes() -> [String] {
        GStreamerRuntime.ensureInitialized()
        return decoders.filter { $0.elements.contains(where: isInstalled) }.map(\.mimeType)
    }

    /// The URI schemes GStreamer has a source element for, among those a music player offers.
    public static func supportedURISchemes() -> [String] {
        GStreamerRuntime.ensureInitialized()
        return ["file", "http", "https"].filter { scheme in
            gst_uri_protocol_is_supported(GST_URI_SRC, scheme) != 0
        }
    }

    /// Whether the element factory `name` is installed.
    public static func isInstalled(_ name: String) -> Bool {
        GStreamerRuntime.ensureInitialized()
        guard let factory = gst_element_factory_find(name) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }
}
