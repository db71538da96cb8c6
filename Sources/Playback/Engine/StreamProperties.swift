internal import CGStreamer

/// Tags the audio stream for the sound server: `media.role` (music by default) lets
/// PulseAudio/PipeWire cork music during calls or treat alarms as events, and the application fields name the player in volume mixers. Applied to
/// any element inside playbin that has pulsesink's `stream-properties`, whenever it appears
/// (autoaudiosink creates its real sink only when it starts). `tag` goes in as the
/// ``PulseRouteMonitor/streamTagKey`` property, by which the engine finds its own stream.
final class StreamProperties: @unchecked Sendable {
    private let application: ApplicationIdentity
    private let role: MediaRole
    private let tag: String

    private init(application: ApplicationIdentity, role: MediaRole, tag: String) {
        self.application = application
        self.role = role
        self.tag = tag
    }

    /// Connects to `playbin`'s element-setup; the signal owns the handler's state.
    static func install(
        on playbin: UnsafeMutablePointer<GstElement>, application: ApplicationIdentity, role: MediaRole, tag: String
    ) -> gulong {
        let box = Unmanaged.passRetained(StreamProperties(application: application, role: role, tag: tag)).toOpaque()
        return linnet_gst_connect_child_element(playbin, "element-setup", { _, element, data in
            guard let element, let data else { return }
            Unmanaged<StreamProperties>.fromOpaque(data).takeUnretainedValue().apply(to: element)
        }, box, { data, _ in
            if let data { Unmanaged<StreamProperties>.fromOpaque(data).release() }
        })
    }

    private func apply(to element: UnsafeMutablePointer<GstElement>) {
        if element.hasProperty("client-name") { element.set("client-name", application.name) }
        guard element.hasProperty("stream-properties"), let structure = gst_structure_new_empty("props") else {
            return
        }
        defer { gst_structure_free(structure) }
        let fields = [
            ("media.role", role.rawValue), ("application.name", application.name),
            ("application.id", application.id), ("application.icon_name", application.iconName),
            (PulseRouteMonitor.streamTagKey, tag),
        ]
        for (key, text) in fields {
            var value = GValue()
            g_value_init(&value, g_type_from_name("gchararray"))
            g_value_set_string(&value, text)
            gst_structure_take_value(structure, key, &value)
        }
        // The property copies the boxed structure.
        linnet_gst_set_pointer(element, "stream-properties", structure)
    }
}
