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

    /// playbin switches to the next track on this thread right after the signal returns:
    /// it unlinks and drops the finished group's combiner, adds the next uridecodebin to
    /// itself and only then gives it its URI. A pipeline state change running meanwhile on
    /// another thread walks those same children. A short first track drains while the
    /// pipeline is still on its way to PLAYING — GStreamer finishes PAUSED→PLAYING after
    /// preroll on a thread of its own — and the two overlapped. Under AddressSanitizer that
    /// window produced a CRITICAL for an input-selector disposed while PLAYING (caught with
    /// playbin's log), and is the likely cause of "No URI specified to play from" right after
    /// about-to-finish (seen once, not reproduced). Measured on a bare playbin with a 0.5 s WAV:
    /// about-to-finish arrived with that state change still pending in 4 runs of 4, and it
    /// completed 0.4–3 ms later while this thread waited, so the switch now comes after it.
    ///
    /// Waits only while the pipeline is on its way up and needs nothing more from this thread:
    /// starting (READY, on its way up), or prerolled and being taken on to PLAYING (PAUSED on
    /// its way to PLAYING while the sink has its preroll buffer). The second case caught a
    /// switch in a later `make check` run: the new uridecodebin was set to PAUSED before
    /// playbin had given it its URI ("No URI specified to play from", reported against the
    /// audible track, which then stopped). A change down to READY or NULL is the engine
    /// resetting, which needs this thread to return, and a pipeline still prerolling (after a
    /// flushing seek, say) may be waiting for this very thread's data — measured under
    /// AddressSanitizer, the first track of rateSurvivesTheGaplessSwitch then stalled up to a
    /// second. The wait goes in 50 ms slices so that a reset starting meanwhile is held up at
    /// most that long, and gives up after 250 ms.
    private func letStateChangeFinish(_ playbin: UnsafeMutablePointer<GstElement>) {
        for _ in 0..<5 {
            var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            let result = gst_element_get_state(playbin, &state, &pending, 0)
            guard result == GST_STATE_CHANGE_ASYNC, pending.rawValue > state.rawValue else { return }
            let starting = state.rawValue <= GST_STATE_READY.rawValue && pending.rawValue > GST_STATE_READY.rawValue
            let goingOnToPlaying = state == GST_STATE_PAUSED && pending == GST_STATE_PLAYING && sinkHasPrerolled
            guard starting || goingOnToPlaying else { return }
            _ = gst_element_get_state(playbin, &state, &pending, 50_000_000)
        }
    }

    /// Whether the sink holds its preroll buffer: its state change is not waiting for data.
    private var sinkHasPrerolled: Bool {
        var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(sink.pointer, &state, &pending, 0)
        return result != GST_STATE_CHANGE_ASYNC && result != GST_STATE_CHANGE_FAILURE
            && state.rawValue >= GST_STATE_PAUSED.rawValue
    }
}
