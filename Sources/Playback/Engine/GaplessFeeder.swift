internal import CGStreamer

/// Answers playbin's "about-to-finish", which runs on a streaming thread and must set the next
/// URI before it returns. It touches nothing but the handoff and the `uri` property; the loop
/// thread learns about it through `notify`.
final class GaplessFeeder: @unchecked Sendable {
    private let handoff: StreamingHandoff
    /// The audio sink playbin plays into (playbin holds it for the pipeline's life).
    private let sink: UncheckedPointer<GstElement>
    private let notify: @Sendable (_ generation: UInt64, _ finishing: String?, _ next: String?) -> Void

    private init(
        handoff: StreamingHandoff, sink: UncheckedPointer<GstElement>,
        notify: @escaping @Sendable (UInt64, String?, String?) -> Void
    ) {
        self.handoff = handoff
        self.sink = sink
        self.notify = notify
    }

    /// Connects to `playbin`; the signal owns the feeder.
    static func install(
        on playbin: UnsafeMutablePointer<GstElement>, sink: UnsafeMutablePointer<GstElement>, handoff: StreamingHandoff,
        notify: @escaping @Sendable (UInt64, String?, String?) -> Void
    ) -> gulong {
        let feeder = GaplessFeeder(handoff: handoff, sink: UncheckedPointer(sink), notify: notify)
        return linnet_gst_connect_about_to_finish(playbin, { playbin, data in
            guard let playbin, let data else { return }
            Unmanaged<GaplessFeeder>.fromOpaque(data).takeUnretainedValue().aboutToFinish(playbin)
        }, Unmanaged.passRetained(feeder).toOpaque(), { data, _ in
            if let data { Unmanaged<GaplessFeeder>.fromOpaque(data).release() }
        })
    }

    private func aboutToFinish(_ playbin: UnsafeMutablePointer<GstElement>) {
        // Only a switch needs the wait: with nothing to hand over playbin switches nothing,
        // and this thread holds its stream lock, which a flushing seek from the loop thread
        // (the engine's rate re-application after preroll) would wait for.
        if handoff.hasNext { letStateChangeFinish(playbin) }
        let (generation, finishing, next, announce) = handoff.takeNext()
        if let next { playbin.set("uri", next) }
        if announce { notify(generation, finishing, next) }
    }

    /// Lets an upward pipeline state change finish before playbin switches groups, as far as
    /// ``GaplessHandOffGate`` allows.
    private func letStateChangeFinish(_ playbin: UnsafeMutablePointer<GstElement>) {
        for _ in 0..<GaplessHandOffGate.slices {
            var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            let result = gst_element_get_state(playbin, &state, &pending, 0)
            let inFlight = result == GST_STATE_CHANGE_ASYNC ? Self.states(state, pending) : nil
            guard GaplessHandOffGate.shouldWait(changeInFlight: inFlight, sinkHasPrerolled: { sinkHasPrerolled }) else {
                return
            }
            _ = gst_element_get_state(playbin, &state, &pending, GstClockTime(GaplessHandOffGate.sliceNanoseconds))
        }
    }

    private static func states(
        _ current: GstState, _ pending: GstState
    ) -> (current: GaplessHandOffGate.ElementState, pending: GaplessHandOffGate.ElementState)? {
        guard let current = GaplessHandOffGate.ElementState(rawValue: Int(current.rawValue)),
              let pending = GaplessHandOffGate.ElementState(rawValue: Int(pending.rawValue)) else { return nil }
        return (current, pending)
    }

    /// Whether the sink holds its preroll buffer: its state change is not waiting for data.
    private var sinkHasPrerolled: Bool {
        var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(sink.pointer, &state, &pending, 0)
        return result != GST_STATE_CHANGE_ASYNC && result != GST_STATE_CHANGE_FAILURE
            && state.rawValue >= GST_STATE_PAUSED.rawValue
    }
}
