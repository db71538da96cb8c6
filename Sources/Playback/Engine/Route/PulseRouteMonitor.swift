internal import CPulse
import EventLoop

/// Follows the device the engine's own stream plays to, through libpulse's subscription API
/// (PulseAudio, and PipeWire's pulse server, which speaks the same protocol).
///
/// pulsesink itself only says that its stream moved (an upstream `pulse-sink-changed` event);
/// it says nothing when the sink's active port changes from headphones to speakers, because the
/// stream stays on the same sink, and nothing about whether the old sink still exists. This
/// client asks the server: it subscribes to sink and sink-input events and, when one concerns
/// the stream or its sink, reads the stream's sink and that sink's port and form factor, then
/// classifies the step with ``RouteChange/classify(from:to:oldSinkStillExists:)``.
///
/// The client runs on the engine's GLib context (libpulse-mainloop-glib): no thread of its own,
/// no timer, and it is silent while the server reports nothing. It finds the stream by the
/// ``streamTagKey`` property the engine adds to its stream. Everything here runs on the loop
/// thread, which is what makes the class Sendable.
final class PulseRouteMonitor: @unchecked Sendable {
    /// The stream property that tells the engine's stream from every other one (other players,
    /// linnet's second engine): its value is unique to this monitor.
    static let streamTagKey = "linnet.stream.id"
    /// This monitor's value of ``streamTagKey``.
    let streamTag: String

    private let loop: EventLoop
    private let report: (OutputRoute, RouteChange) -> Void
    private let unavailable: (_ warning: String?) -> Void
    private var connection: Connection?
    /// Counts connections, so a teardown scheduled for one never closes a later one.
    private var connectionNumber = 0
    /// The server address pulsesink uses (nil: the default server).
    private var server: String?
    /// The stream's sink-input index and the sink it plays to, as last read.
    private var streamIndex: UInt32?
    private var streamSink: UInt32?
    /// The route of the current stream, as last reported. Forgotten with the stream: a stream
    /// pulsesink creates anew (after a stop, or for a track loaded anew) starts with an
    /// ``RouteChange/initial`` route, so a device that went away while nothing played is not a
    /// loss that pauses the play just pressed.
    private(set) var route: OutputRoute?
    /// Sinks read so far in the listing under way; the server answers listings in order.
    private var listedSinks: [OutputRoute] = []
    private var warned = false

    /// A monitor that calls `report` with each change of route, and `unavailable` each time a
    /// connection fails or ends, with a warning to show the first time the server cannot be
    /// reached (nil after that); both on the loop thread.
    init(
        loop: EventLoop, tag: String, report: @escaping (OutputRoute, RouteChange) -> Void,
        unavailable: @escaping (_ warning: String?) -> Void
    ) {
        self.loop = loop
        streamTag = tag
        self.report = report
        self.unavailable = unavailable
    }

    deinit { disconnect() }

    /// Starts following the stream on `server` (pulsesink's `server` property; nil for the
    /// default), unless already connected there. Called when a pulsesink is set up.
    func watch(server: String?) {
        if connection != nil, self.server == server { return }
        disconnect()
        self.server = server
        guard let glib = pa_glib_mainloop_new(loop.glibContext) else { return }
        guard let context = pa_context_new(pa_glib_mainloop_get_api(glib), "Linnet output route") else {
            pa_glib_mainloop_free(glib)
            return
        }
        connectionNumber += 1
        connection = Connection(glib: glib, context: context)
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(context, { context, data in
            guard let context, let data else { return }
            Unmanaged<PulseRouteMonitor>.fromOpaque(data).takeUnretainedValue().stateChanged(context)
        }, me)
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            failed(context)
        }
    }

    /// Whether a connection is open or being opened.
    var isConnected: Bool { connection != nil }

    /// Closes the connection; no callback runs after this returns (libpulse cancels pending
    /// operations without calling them).
    func disconnect() {
        guard let connection else { return }
        self.connection = nil
        streamIndex = nil
        streamSink = nil
        listedSinks = []
        pa_context_set_state_callback(connection.context, nil, nil)
        pa_context_set_subscribe_callback(connection.context, nil, nil)
        pa_context_disconnect(connection.context)
        pa_context_unref(connection.context)
        pa_glib_mainloop_free(connection.glib)
    }

    // MARK: Server events

    private func stateChanged(_ context: OpaquePointer) {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            connection?.ready = true
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_context_set_subscribe_callback(context, { _, type, index, data in
                guard let data else { return }
                Unmanaged<PulseRouteMonitor>.fromOpaque(data).takeUnretainedValue().serverEvent(type, index)
            }, me)
            let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
            release(pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil))
            // The stream may already exist; later ones arrive as events.
            release(pa_context_get_sink_input_info_list(context, Self.streamRead, me))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            failed(context)
        default:
            break
        }
    }

    /// The connection failed or the server went away. Warns once, and only if it never worked:
    /// a server that goes away takes pulsesink's stream with it, and the next pulsesink set up
    /// connects again.
    private func failed(_ context: OpaquePointer) {
        // A refused connect reports FAILED to the state callback and then returns an error.
        guard let connection, !connection.failed else { return }
        connection.failed = true
        var warning: String?
        if !connection.ready, !warned {
            warned = true
            let reason = String(cString: pa_strerror(pa_context_errno(context)))
            warning = "Cannot follow the audio output's device (\(reason)): unplugged headphones will not be noticed"
        }
        unavailable(warning)
        // Not from inside libpulse's own callback: the context must outlive it.
        let number = connectionNumber
        loop.execute { [weak self] in
            guard let self, self.connectionNumber == number else { return }
            self.disconnect()
        }
    }

    private func serverEvent(_ type: pa_subscription_event_type_t, _ index: UInt32) {
        guard let context = connection?.context else { return }
        let facility = linnet_pa_event_facility(type), kind = linnet_pa_event_kind(type)
        let removed = kind == Int32(PA_SUBSCRIPTION_EVENT_REMOVE.rawValue)
        switch facility {
        case Int32(PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue):
            if removed {
                // pulsesink dropped its stream (stopped, or a track loaded anew).
                if index == streamIndex {
                    streamIndex = nil
                    streamSink = nil
                    route = nil
                }
                return
            }
            // Before the stream is known, every new stream may be it.
            guard streamIndex == nil || streamIndex == index else { return }
            release(pa_context_get_sink_input_info(context, index, Self.streamRead, Unmanaged.passUnretained(self).toOpaque()))
        case Int32(PA_SUBSCRIPTION_EVENT_SINK.rawValue):
            // A change of the stream's sink: its active port or a port's availability may
            // have changed. A removed sink is reported by the stream's move that goes with it.
            guard !removed, index == streamSink else { return }
            listSinks()
        default:
            break
        }
    }

    /// A sink input was read: if it is the engine's stream and its sink is new, read the sinks.
    private static let streamRead: pa_sink_input_info_cb_t = { _, info, eol, data in
        guard eol == 0, let info, let data else { return }
        let monitor = Unmanaged<PulseRouteMonitor>.fromOpaque(data).takeUnretainedValue()
        guard let value = pa_proplist_gets(info.pointee.proplist, PulseRouteMonitor.streamTagKey),
              String(cString: value) == monitor.streamTag else { return }
        monitor.streamFound(index: info.pointee.index, sink: info.pointee.sink)
    }

    private func streamFound(index: UInt32, sink: UInt32) {
        streamIndex = index
        guard sink != streamSink || route == nil else { return }
        streamSink = sink
        listSinks()
    }

    /// Reads every sink: the stream's new one and whether the old one still exists, in one
    /// answer that reflects the server after whatever moved the stream.
    private func listSinks() {
        guard let context = connection?.context else { return }
        release(pa_context_get_sink_info_list(context, Self.sinkRead, Unmanaged.passUnretained(self).toOpaque()))
    }

    private static let sinkRead: pa_sink_info_cb_t = { _, info, eol, data in
        guard let data else { return }
        let monitor = Unmanaged<PulseRouteMonitor>.fromOpaque(data).takeUnretainedValue()
        if eol == 0, let info {
            monitor.listedSinks.append(OutputRoute(info.pointee))
        } else {
            monitor.sinksListed()
        }
    }

    private func sinksListed() {
        let sinks = listedSinks
        listedSinks = []
        // The sink may have gone again meanwhile; the move that goes with that is reported next.
        guard let sink = streamSink, let new = sinks.first(where: { $0.sinkIndex == sink }), new != route else { return }
        let oldStillExists = route.map { old in sinks.contains { $0.sinkIndex == old.sinkIndex } } ?? false
        let change = RouteChange.classify(from: route, to: new, oldSinkStillExists: oldStillExists)
        route = new
        report(new, change)
    }

    private func release(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }
}

/// One libpulse connection: the GLib main-loop adapter and the context on it.
private final class Connection {
    let glib: OpaquePointer
    let context: OpaquePointer
    /// Whether it ever reached READY, and whether its failure was handled.
    var ready = false
    var failed = false

    init(glib: OpaquePointer, context: OpaquePointer) {
        self.glib = glib
        self.context = context
    }
}
