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
        let (generation, finishing, next, announce) = handoff.takeNext()
        if let next { playbin.set("uri", next) }
        if announce { notify(generation, finishing, next) }
    }
}
