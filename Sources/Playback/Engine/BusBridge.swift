internal import CGStreamer

/// A bus message handed from the posting thread to the loop thread, tagged with facts that are
/// only true at the moment it was posted.
final class BusMessage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstMessage>
    /// The pipeline generation current when the message was posted.
    let generation: UInt64
    /// The URI of the uridecodebin the message came from, if it came from inside one. Read at
    /// post time because playbin reuses its decode bins for later URIs.
    let originURI: String?
    /// Whether it came from inside a uridecodebin that had no URI yet: one playbin had just
    /// created for the next track when a state change of the pipeline reached it.
    let fromDecoderWithoutURI: Bool

    init(
        retaining pointer: UnsafeMutablePointer<GstMessage>, generation: UInt64, originURI: String?,
        fromDecoderWithoutURI: Bool = false
    ) {
        self.pointer = gst_message_ref(pointer)
        self.generation = generation
        self.originURI = originURI
        self.fromDecoderWithoutURI = fromDecoderWithoutURI
    }

    deinit { gst_message_unref(pointer) }

    var type: GstMessageType { pointer.pointee.type }
}

/// The one consumer of a pipeline's bus: a sync handler that runs on whichever thread posts,
/// drops what the engine never looks at, and forwards the rest to the loop thread in order.
final class BusBridge: @unchecked Sendable {
    private let pipeline: UnsafeMutablePointer<GstElement>
    private let handoff: StreamingHandoff
    private let deliver: @Sendable (BusMessage) -> Void

    private static let forwarded: Set<GstMessageType.RawValue> = [
        GST_MESSAGE_ERROR, GST_MESSAGE_WARNING, GST_MESSAGE_EOS, GST_MESSAGE_TAG,
        GST_MESSAGE_STATE_CHANGED, GST_MESSAGE_ASYNC_DONE, GST_MESSAGE_DURATION_CHANGED,
        GST_MESSAGE_STREAM_START, GST_MESSAGE_BUFFERING, GST_MESSAGE_REQUEST_STATE,
        GST_MESSAGE_CLOCK_LOST,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    private init(
        pipeline: UnsafeMutablePointer<GstElement>, handoff: StreamingHandoff,
        deliver: @escaping @Sendable (BusMessage) -> Void
    ) {
        self.pipeline = pipeline
        self.handoff = handoff
        self.deliver = deliver
    }

    /// Installs the bridge on `pipeline`'s bus; the bus owns it until ``uninstall(from:)``.
    static func install(
        on pipeline: UnsafeMutablePointer<GstElement>, handoff: StreamingHandoff,
        deliver: @escaping @Sendable (BusMessage) -> Void
    ) {
        let bridge = BusBridge(pipeline: pipeline, handoff: handoff, deliver: deliver)
        guard let bus = gst_element_get_bus(pipeline) else { return }
        defer { gst_object_unref(bus) }
        gst_bus_set_sync_handler(bus, { _, message, data in
            guard let message, let data else { return GST_BUS_PASS }
            Unmanaged<BusBridge>.fromOpaque(data).takeUnretainedValue().forward(message)
            // A sync handler that answers DROP owns the posted reference (gst_bus_post does not
            // unref it), so release it here; the loop thread holds its own in BusMessage.
            gst_message_unref(message)
            return GST_BUS_DROP
        }, Unmanaged.passRetained(bridge).toOpaque(), { data in
            if let data { Unmanaged<BusBridge>.fromOpaque(data).release() }
        })
    }

    /// Removes the handler; GStreamer then releases the bridge.
    static func uninstall(from pipeline: UnsafeMutablePointer<GstElement>) {
        guard let bus = gst_element_get_bus(pipeline) else { return }
        defer { gst_object_unref(bus) }
        gst_bus_set_sync_handler(bus, nil, nil, nil)
    }

    private func forward(_ message: UnsafeMutablePointer<GstMessage>) {
        let type = message.pointee.type
        guard Self.forwarded.contains(type.rawValue) else { return }
        let source = message.pointee.src
        // Every child element reports its own state changes; only the pipeline's matter.
        if type == GST_MESSAGE_STATE_CHANGED, UnsafeMutableRawPointer(source) != UnsafeMutableRawPointer(pipeline) {
            return
        }
        let needsOrigin = type == GST_MESSAGE_ERROR || type == GST_MESSAGE_WARNING || type == GST_MESSAGE_TAG
        let origin = needsOrigin ? self.origin(of: source) : (uri: nil, decoderWithoutURI: false)
        deliver(BusMessage(
            retaining: message, generation: handoff.generation, originURI: origin.uri,
            fromDecoderWithoutURI: origin.decoderWithoutURI))
    }

    /// Walks up from `source` to the nearest ancestor below the pipeline that has a `uri`
    /// property (playbin's uridecodebin for that track), and reads it.
    private func origin(of source: UnsafeMutablePointer<GstObject>?) -> (uri: String?, decoderWithoutURI: Bool) {
        guard let source, var current = gst_object_ref(source) else { return (nil, false) }
        while true {
            let object = current.assumingMemoryBound(to: GstObject.self)
            if current == UnsafeMutableRawPointer(pipeline) {
                gst_object_unref(current)
                return (nil, false)
            }
            if linnet_gst_has_property(current, "uri") != 0 {
                let uri = takeString(linnet_gst_get_string(current, "uri"))
                gst_object_unref(current)
                return (uri, uri == nil)
            }
            guard let parent = gst_object_get_parent(object) else {
                gst_object_unref(current)
                return (nil, false)
            }
            gst_object_unref(current)
            current = UnsafeMutableRawPointer(parent)
        }
    }
}
