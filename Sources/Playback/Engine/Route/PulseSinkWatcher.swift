internal import CGStreamer

/// Notices each pulsesink that playbin sets up (the configured sink, or the one autoaudiosink
/// picks), so the engine can follow its stream's device with a ``PulseRouteMonitor`` on the same
/// server.
enum PulseSinkWatcher {
    /// Connects to `playbin`'s element-setup; `appeared` is called (on the thread setting the
    /// element up) with the pulsesink's `server` (nil: the default server). Returns the handler
    /// id; it owns the handler until disconnected.
    static func install(
        on playbin: UnsafeMutablePointer<GstElement>, appeared: @escaping @Sendable (String?) -> Void
    ) -> gulong {
        let box = Unmanaged.passRetained(Handler(appeared)).toOpaque()
        return linnet_gst_connect_element_setup(playbin, { _, element, data in
            guard let element, let data else { return }
            Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().inspect(element)
        }, box, { data, _ in
            if let data { Unmanaged<Handler>.fromOpaque(data).release() }
        })
    }

    private final class Handler: Sendable {
        let appeared: @Sendable (String?) -> Void

        init(_ appeared: @escaping @Sendable (String?) -> Void) { self.appeared = appeared }

        /// pulsesink is the element with `current-device`; its `server` is a plain field, safe
        /// to read here (unlike properties that lock pulsesink's PulseAudio main loop).
        func inspect(_ element: UnsafeMutablePointer<GstElement>) {
            guard element.hasProperty("current-device"), element.hasProperty("server") else { return }
            appeared(element.string("server"))
        }
    }
}
