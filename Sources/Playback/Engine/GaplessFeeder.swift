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
    /// preroll on a thread of its own — and the two overlapped: under AddressSanitizer this
    /// gave "No URI specified to play from" at the hand-off, and once a CRITICAL for an
    /// input-selector disposed in PLAYING. Measured on a bare playbin with a 0.5 s WAV:
    /// about-to-finish arrived with that state change still pending in 4 runs of 4, and it
    /// completed 0.4–3 ms later while this thread waited, so the switch now comes after it.
    ///
    /// Waits only for a change upwards (to PAUSED or PLAYING): a change down to READY or NULL
    /// is the engine resetting, which needs this thread to return. The wait goes in 50 ms
    /// slices so that a reset starting meanwhile is held up at most that long, and gives up
    /// after 250 ms (the engine holds a next URI back while a seek of its own is due, so a
    /// user's seek landing in this window is the one thing it can delay).
    private static func letStateChangeFinish(_ playbin: UnsafeMutablePointer<GstElement>) {
        for _ in 0..<5 {
            var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            let result = gst_element_get_state(playbin, &state, &pending, 50_000_000)
            guard result == GST_STATE_CHANGE_ASYNC, pending.rawValue > GST_STATE_READY.rawValue else { return }
        }
    }
}
