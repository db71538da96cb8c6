internal import CGStreamer

/// Answers playbin's "about-to-finish", which runs on a streaming thread and must set the next
/// URI before it returns. It touches nothing but the handoff and the `uri` property; the loop
/// thread learns about it through `notify`.
final class GaplessFeeder: @unchecked Sendable {
    private let handoff: StreamingHandoff
    private let notify: @Sendable (_ generation: UInt64, _ finishing: String?, _ next: String?) -> Void

    private init(
        handoff: StreamingHandoff,
        notify: @escaping @Sendable (UInt64, String?, String?) -> Void
    ) {
        self.handoff = handoff
        self.notify = notify
    }

    /// Connects to `playbin`; the signal owns the feeder.
    static func install(
        on playbin: UnsafeMutablePointer<GstElement>, handoff: StreamingHandoff,
        notify: @escaping @Sendable (UInt64, String?, String?) -> Void
    ) -> gulong {
        let feeder = GaplessFeeder(handoff: handoff, notify: notify)
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
        if handoff.hasNext { Self.letStateChangeFinish(playbin) }
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
    /// Waits only while the pipeline is starting (READY, on its way up): a change down to READY
    /// or NULL is the engine resetting, which needs this thread to return, and after a
    /// flushing seek (PAUSED or PLAYING, refilling) the pipeline may be waiting for this very
    /// thread's data — measured under AddressSanitizer, the first track of
    /// rateSurvivesTheGaplessSwitch then stalled up to a second. The wait goes in 50 ms slices
    /// so that a reset starting meanwhile is held up at most that long, and gives up after
    /// 250 ms.
    private static func letStateChangeFinish(_ playbin: UnsafeMutablePointer<GstElement>) {
        for _ in 0..<5 {
            var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            let result = gst_element_get_state(playbin, &state, &pending, 0)
            guard result == GST_STATE_CHANGE_ASYNC, state.rawValue <= GST_STATE_READY.rawValue,
                  pending.rawValue > GST_STATE_READY.rawValue else { return }
            _ = gst_element_get_state(playbin, &state, &pending, 50_000_000)
        }
    }
}
