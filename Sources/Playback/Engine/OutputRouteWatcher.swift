internal import CGStreamer

/// Notices when the sound server moves linnet's stream to another device.
///
/// When the sink pulsesink plays to goes away (headphones on a USB or Bluetooth sink, an
/// unloaded sink) PulseAudio moves the stream to another sink, and pulsesink — which follows its
/// stream's sink-input events — pushes a custom upstream event named `pulse-sink-changed` from
/// its sink pad (measured with GStreamer 1.22 and PulseAudio 16: no bus message, no error, the
/// stream simply plays on elsewhere). A pad probe on every pulsesink playbin sets up catches that
/// event. It runs on PulseAudio's mainloop thread with that loop's lock held, where reading any
/// pulsesink property would deadlock, so the handler only schedules work on the loop thread.
enum OutputRouteWatcher {
    /// Connects to `playbin`'s element-setup; `moved` is called (on any thread) each time a
    /// pulsesink's stream moves. Returns the handler id; it owns the handler until disconnected.
    static func install(on playbin: UnsafeMutablePointer<GstElement>, moved: @escaping @Sendable () -> Void) -> gulong {
        let box = Unmanaged.passRetained(Handler(moved)).toOpaque()
        return linnet_gst_connect_element_setup(playbin, { _, element, data in
            guard let element, let data else { return }
            Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().watch(element)
        }, box, { data, _ in
            if let data { Unmanaged<Handler>.fromOpaque(data).release() }
        })
    }

    /// Named after the event pulsesink pushes when its stream's sink changes.
    static let sinkChangedEvent = "pulse-sink-changed"

    private final class Handler: Sendable {
        let moved: @Sendable () -> Void

        init(_ moved: @escaping @Sendable () -> Void) { self.moved = moved }

        /// Probes pulsesink's sink pad (pulsesink is the element with `current-device`).
        func watch(_ element: UnsafeMutablePointer<GstElement>) {
            guard element.hasProperty("current-device"), let pad = gst_element_get_static_pad(element, "sink") else {
                return
            }
            defer { gst_object_unref(pad) }
            // The probe holds the handler until the pad (and so the element) is finalised.
            let data = Unmanaged.passRetained(self).toOpaque()
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, { _, info, data in
                guard let info, let data, let event = info.pointee.data else { return GST_PAD_PROBE_OK }
                let typed = event.assumingMemoryBound(to: GstEvent.self)
                if gst_event_has_name(typed, OutputRouteWatcher.sinkChangedEvent) != 0 {
                    Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().moved()
                }
                return GST_PAD_PROBE_OK
            }, data, { data in
                if let data { Unmanaged<Handler>.fromOpaque(data).release() }
            })
        }
    }
}
