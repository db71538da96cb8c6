internal import CGStreamer
import FoundationEssentials
import Glibc
import Synchronization

/// Where the stream plays and the headphone volume cap that follows from it, on the loop thread.
extension GStreamerPipeline {
    /// Numbers the pipelines of this process, to tell their streams apart on the sound server.
    private static let streamCounter = Atomic<Int>(0)

    /// A value for the stream's ``PulseRouteMonitor/streamTagKey`` property that no other stream
    /// on the server has: this process's id and this pipeline's number in it.
    static func nextStreamTag() -> String {
        let number = streamCounter.add(1, ordering: .relaxed).newValue
        return "\(getpid())-\(number)"
    }

    /// A pulsesink was set up: follow its stream on its server. Until the server says where
    /// the stream goes, a headphone volume cap applies (quiet first, never loud in the ears).
    func pulseSinkAppeared(_ sink: PulseSinkSetup) {
        if let old = pulseSink { gst_object_unref(old.element.pointer.asObject) }
        guard !isRetired else {
            gst_object_unref(sink.element.pointer.asObject)
            pulseSink = nil
            return
        }
        pulseSink = sink
        session.expectsRoute = true
        applyVolume(force: false)
        routeMonitor?.watch(server: sink.server)
    }

    /// Gives the pulsesink back the device it was configured with, while the pipeline is at
    /// NULL. pulsesink writes the name of the sink each stream connected to into its own
    /// `device` property, which pins every later stream to that sink: once it vanished while no
    /// stream existed (stopped, or between tracks), playing again failed with "Failed to
    /// configure the audio sink" instead of going where the server would put a new stream.
    func unpinPulseSink() {
        guard let pulseSink else { return }
        linnet_gst_set_string(pulseSink.element.pointer, "device", pulseSink.device)
    }

    /// Reported by the ``PulseRouteMonitor``: the cap follows the new route, then the player hears
    /// of it (and decides whether to pause).
    func routeChanged(_ route: OutputRoute, _ change: RouteChange) {
        guard !isRetired else { return }
        session.route = route
        applyVolume(force: false)
        emit(.outputRouteChanged(route, change))
    }

    /// The sound server cannot be asked where the stream plays: stop expecting an answer (a
    /// cap waiting for one would never lift), and pass the first warning on.
    func routeUnavailable(warning: String?) {
        guard !isRetired else { return }
        if session.route == nil {
            session.expectsRoute = false
            applyVolume(force: false)
        }
        if let warning { emit(.warning(uri: nil, message: warning)) }
    }

    /// Whether the headphone volume cap holds now: on a private route, or a route still unknown
    /// on a sound server.
    var capsVolume: Bool {
        guard headphoneVolumeCap != nil else { return false }
        return session.route?.isPrivateListening ?? session.expectsRoute
    }

    /// Sets playbin's volume to the requested one, held under the cap when it applies. `force`
    /// sets it even when unchanged (a `setVolume` always reaches the sink).
    func applyVolume(force: Bool) {
        let requested = session.requestedVolume
        let applied = capsVolume ? min(requested, headphoneVolumeCap ?? requested) : requested
        guard force || applied != session.level.volume else { return }
        // Known before it is set, so the notification it causes is recognised as our own.
        session.level.volume = applied
        playbin.set("volume", applied)
    }
}
