internal import CGStreamer

/// Builds playbin's audio filter: ReplayGain levelling (when asked for) and scaletempo, which
/// keeps the pitch when the rate changes. Missing plugins only cost their feature.
enum AudioFilterFactory {
    struct Result {
        /// A floating element for playbin to take, or nil for no filter.
        let element: UnsafeMutablePointer<GstElement>?
        let warnings: [String]
    }

    static func make(replayGain: ReplayGainMode) -> Result {
        let hasTempo = exists("scaletempo")
        guard replayGain != .off else {
            return Result(element: hasTempo ? gst_element_factory_make("scaletempo", "linnet-tempo") : nil, warnings: [])
        }
        // rgvolume reads the tags flowing past and scales in floating point; rglimiter keeps
        // positive gains from clipping. No dithering back to integers, so unity gain stays
        // bit-exact.
        let albumMode = replayGain == .album ? "true" : "false"
        var description = "audioconvert ! rgvolume album-mode=\(albumMode) ! rglimiter ! audioconvert dithering=none"
        if hasTempo { description += " ! scaletempo" }
        var error: UnsafeMutablePointer<GError>?
        var bin = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            // Not strict by default: a missing element still yields a (broken) bin.
            g_error_free(error)
            if let partial = bin { gst_object_unref(gst_object_ref_sink(partial)) }
            bin = nil
        }
        guard let bin else {
            return Result(
                element: hasTempo ? gst_element_factory_make("scaletempo", "linnet-tempo") : nil,
                warnings: ["ReplayGain is unavailable (rgvolume/rglimiter missing); playing without it"])
        }
        return Result(element: bin, warnings: [])
    }

    private static func exists(_ factory: String) -> Bool {
        guard let found = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }
}
