internal import CGStreamer

/// Builds the element playbin plays into from an ``AudioOutput``, falling back step by step
/// (custom description → system output → null sink) so a broken output never stops playback.
struct AudioSinkFactory {
    /// The sink to use and the warnings that explain any fallback taken.
    struct Result {
        let sink: UnsafeMutablePointer<GstElement>
        let warnings: [String]
    }

    /// Returns a sink owned by the caller (not floating).
    static func make(for output: AudioOutput) -> Result {
        switch output {
        case .null:
            return Result(sink: nullSink(), warnings: [])
        case .system:
            return system(warnings: [])
        case .description(let description):
            var error: UnsafeMutablePointer<GError>?
            guard let bin = gst_parse_bin_from_description(description, 1, &error) else {
                let reason = takeError(error) ?? "unknown error"
                return system(warnings: [
                    "Cannot build audio output \"\(description)\" (\(reason)); using the system output",
                ])
            }
            _ = takeError(error)
            let sink = owned(bin)
            guard opens(sink) else {
                gst_object_unref(sink)
                return system(warnings: [
                    "Audio output \"\(description)\" cannot be opened; using the system output",
                ])
            }
            return Result(sink: sink, warnings: [])
        }
    }

    /// autoaudiosink, unless it can only offer its own silent stand-in.
    private static func system(warnings: [String]) -> Result {
        if let made = gst_element_factory_make("autoaudiosink", "linnet-audio-output") {
            let sink = owned(made)
            if opens(sink, rejectingStandIn: true) { return Result(sink: sink, warnings: warnings) }
            gst_object_unref(sink)
        }
        return Result(sink: nullSink(), warnings: warnings + [
            "No audio output is available (no sound server or device could be opened); "
                + "playing to a null sink, so nothing will be heard",
        ])
    }

    /// A sink that consumes audio in real time, so positions and end-of-stream stay truthful.
    private static func nullSink() -> UnsafeMutablePointer<GstElement> {
        let sink = owned(gst_element_factory_make("fakesink", "linnet-null-output")!)
        sink.set("sync", true)
        return sink
    }

    /// Whether `sink` reaches READY, which is where audio sinks open their device or server
    /// connection. autoaudiosink reaches READY even with nothing to play to, by wrapping a
    /// fakesink; `rejectingStandIn` treats that as failure.
    private static func opens(
        _ sink: UnsafeMutablePointer<GstElement>, rejectingStandIn: Bool = false
    ) -> Bool {
        defer { gst_element_set_state(sink, GST_STATE_NULL) }
        guard gst_element_set_state(sink, GST_STATE_READY) != GST_STATE_CHANGE_FAILURE else {
            return false
        }
        guard rejectingStandIn else { return true }
        return !sink.descendants.contains { $0.factoryName == "fakesink" }
    }

    /// Sinks a floating reference so every path can simply unref.
    private static func owned(_ element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement> {
        UnsafeMutableRawPointer(gst_object_ref_sink(element)!).assumingMemoryBound(to: GstElement.self)
    }

    private static func takeError(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}
