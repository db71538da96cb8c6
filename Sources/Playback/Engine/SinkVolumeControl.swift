internal import CGStreamer

/// Gives an audio sink without a volume control a `volume` element of its own, in front of it.
///
/// playbin's sink side (playsink) controls volume and mute through a `volume` property of the
/// sink, or of an element inside it (pulsesink has one). For a sink without one — the null sink,
/// a capture bin, most custom descriptions — the soft-volume flag makes playsink build a
/// converter bin with a volume element, anew every time the pipeline passes through NULL, which
/// linnet's pipeline does at every track load. GStreamer 1.22 never frees those bins: a bare
/// playbin in C doing the same loads keeps ~4 KiB more heap per load with the flag and stays
/// flat without it or with a sink that has its own volume. Finding a volume in the sink, playsink
/// uses that one and builds nothing per load; volume and mute still apply to every sink alike.
enum SinkVolumeControl {
    /// `sink` itself when it (or an element inside it) has a `volume` property, else a bin of a
    /// new `volume` element linked into `sink`. Takes the caller's reference to `sink` and
    /// returns a reference the caller owns; a sink that cannot be linked is returned unchanged.
    static func ensured(on sink: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement> {
        guard !hasVolume(sink), let volume = gst_element_factory_make("volume", "linnet-sink-volume"),
            let made = gst_bin_new("linnet-output"),
            let bin = made.asBin
        else { return sink }
        let wrapper = UnsafeMutableRawPointer(gst_object_ref_sink(made)!).assumingMemoryBound(to: GstElement.self)
        // The bin takes the floating volume element and adds its own reference to the sink.
        gst_bin_add(bin, volume)
        gst_bin_add(bin, sink)
        guard gst_element_link(volume, sink) != 0,
            let target = gst_element_get_static_pad(volume, "sink")
        else {
            gst_bin_remove(bin, sink)
            gst_object_unref(wrapper.asObject)
            return sink
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(target).assumingMemoryBound(to: GstObject.self)) }
        guard let ghost = gst_ghost_pad_new("sink", target), gst_element_add_pad(wrapper, ghost) != 0 else {
            gst_bin_remove(bin, sink)
            gst_object_unref(wrapper.asObject)
            return sink
        }
        gst_object_unref(sink.asObject)
        return wrapper
    }

    /// Whether playsink would find a volume control in `sink`, as it looks for one.
    private static func hasVolume(_ sink: UnsafeMutablePointer<GstElement>) -> Bool {
        sink.hasProperty("volume") || sink.descendants.contains { $0.hasProperty("volume") }
    }
}
