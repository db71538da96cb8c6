internal import CGStreamer

/// A pulsesink as it was set up, before any stream: a reference to it (the receiver unrefs it)
/// and the `server` and `device` it was configured with (nil: the defaults).
struct PulseSinkSetup: Sendable {
    let element: UncheckedPointer<GstElement>
    let server: String?
    let device: String?
}

/// Notices each pulsesink that playbin sets up (the configured sink, or the one autoaudiosink
/// picks), so the engine can follow its stream's device with a ``PulseRouteMonitor`` on the same
/// server.
enum PulseSinkWatcher {
    /// Connects to `playbin`'s element-setup; `appeared` is called (on the thread setting the
    /// element up) with each pulsesink. Returns the handler id; it owns the handler until
    /// disconnected.
    static func install(
        on playbin: UnsafeMutablePointer<GstElement>, appeared: @escaping @Sendable (PulseSinkSetup) -> Void
    ) -> gulong {
        let box = Unmanaged.passRetained(Handler(appeared)).toOpaque()
        return linnet_gst_connect_child_element(playbin, "element-setup", { _, element, data in
            guard let element, let data else { return }
            Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue().inspect(element)
        }, box, { data, _ in
            if let data { Unmanaged<Handler>.fromOpaque(data).release() }
        })
    }

    private final class Handler: Sendable {
        let appeared: @Sendable (PulseSinkSetup) -> Void

        init(_ appeared: @escaping @Sendable (PulseSinkSetup) -> Void) { self.appeared = appeared }

        /// pulsesink is the element with `current-device`; its `server` and `device` are plain
        /// fields, safe to read here (unlike properties that lock pulsesink's PulseAudio main
        /// loop).
        func inspect(_ element: UnsafeMutablePointer<GstElement>) {
            guard element.hasProperty("current-device"), element.hasProperty("server") else { return }
            gst_object_ref(element.asObject)
            appeared(PulseSinkSetup(
                element: UncheckedPointer(element), server: element.string("server"), device: element.string("device")))
        }
    }
}
