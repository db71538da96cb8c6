internal import CGStreamer
import EventLoop
import Dispatch
import FoundationEssentials
import Synchronization

/// One playbin and the thread that drives it: the working part of ``GStreamerEngine``.
///
/// All pipeline control and all bus messages run on the pipeline's own ``EventLoop`` thread;
/// commands only queue work there and return. It is deliberately not the shared loop that
/// carries D-Bus: a state change can block for as long as GStreamer takes to join its streaming
/// threads (forever, when one of them is stuck), and that must never stop the service answering
/// the bus. Queuing also lets a D-Bus handler publish the new state and reply before the pipeline
/// changes state, rather than after waiting on set_state. The bus has one consumer, a sync
/// handler forwarding to the pipeline's thread, so an idle or paused pipeline wakes nothing up.
/// The only work on GStreamer's streaming threads is handing the queued next URI to playbin in
/// about-to-finish.
///
/// Its lifecycle (starting, stopping with retries, refusing to stop, abandoned, shut down) and the
/// workarounds in progress are one ``PipelineLifecycle`` value, documented there. A pipeline stuck
/// in a change to NULL, or refusing it, is reported through `stuck` and abandoned by the engine:
/// from then on it emits nothing and, should GStreamer ever let go of it, plays nothing.
final class GStreamerPipeline: @unchecked Sendable {
    /// The engine's event stream, shared by every pipeline it makes; only the engine finishes it.
    let continuation: AsyncStream<PlaybackEvent>.Continuation
    /// Private to the pipeline; see the type's documentation. Its thread sleeps in `poll` while
    /// nothing happens, so an idle pipeline still wakes nothing up.
    let loop = EventLoop(name: "linnet.engine")
    /// What the engine's user asked for, shared with the engine and any pipeline replacing this
    /// one; updated here before each event the user may react to.
    let intent: EngineIntentStore
    let settings: EngineSettings
    /// Tells the engine this pipeline is stuck; the engine may abandon it before returning.
    let stuck: @Sendable (GStreamerPipeline, _ reason: String) -> Void
    /// Set from whichever thread the engine gives up on this pipeline (the watchdog's, the
    /// shutting-down caller's): the loop thread may be the one blocked in GStreamer then. The
    /// lifecycle learns it at the next `engineVerdict`; until then this is the authority.
    private let abandonment = Atomic<Bool>(false)
    let playbin: UnsafeMutablePointer<GstElement>
    let handoff = StreamingHandoff()
    let volumeWatcher = VolumeWatcher()
    let tagReader: TagReader
    /// Touched on the loop thread only; that confinement is what makes the class Sendable.
    var session = EngineSession()
    /// Where the pipeline is in its life (loop thread only, like `session`).
    var lifecycle = PipelineLifecycle()
    let positionCache = PositionCache()
    /// The sink playbin plays into; playbin holds it for the engine's life.
    private(set) var audioSink: UnsafeMutablePointer<GstElement>?
    private var signalHandlers: [gulong] = []
    /// Follows the device the stream plays to, once a pulsesink appears (loop thread only).
    private(set) var routeMonitor: PulseRouteMonitor?
    /// The pulsesink in use, referenced, with the device it was configured with (loop thread).
    var pulseSink: PulseSinkSetup?
    /// The most the output volume may be while the route is private listening; nil: no cap.
    var headphoneVolumeCap: Double? { settings.headphoneVolumeCap }

    /// playbin's GstPlayFlags: audio, plus a software volume element so volume and mute apply
    /// to every sink (including capture bins) the same way. Video and subtitles stay off so a
    /// file with a video track never needs a display.
    static let audioOnlyFlags: UInt32 = 0x02 | 0x10

    /// Builds a pipeline as `settings` describe, reporting on `continuation` and calling
    /// `stuck` if a change to NULL does not finish in time (from another thread) or keeps failing.
    init(
        settings: EngineSettings, intent: EngineIntentStore,
        continuation: AsyncStream<PlaybackEvent>.Continuation,
        stuck: @escaping @Sendable (GStreamerPipeline, _ reason: String) -> Void
    ) {
        GStreamerRuntime.ensureInitialized()
        (self.settings, self.intent, self.continuation, self.stuck) = (settings, intent, continuation, stuck)
        tagReader = TagReader(artCache: settings.artCache)
        guard let made = gst_element_factory_make("playbin", "linnet-playbin") else {
            fatalError("GStreamer's playbin is missing: install gstreamer1.0-plugins-base")
        }
        playbin = UnsafeMutableRawPointer(gst_object_ref_sink(made)!)
            .assumingMemoryBound(to: GstElement.self)
        session.reportedState = .stopped
        configure()
    }

    deinit {
        // Tear down without capturing `self`: a closure holding an object that is being
        // deinitialised must not outlive this call.
        let playbin = UncheckedPointer(playbin)
        let handlers = signalHandlers
        let monitor = routeMonitor
        let pulseSink = pulseSink
        let stopped = loop.sync {
            monitor?.disconnect()
            return Self.tearDown(playbin.pointer, handlers: handlers)
        }
        if let pulseSink { gst_object_unref(pulseSink.element.pointer.asObject) }
        // A pipeline GStreamer refused to stop still has streaming threads running in it:
        // freeing it under them could crash the process, so it is left to them.
        if stopped { gst_object_unref(playbin.pointer) }
        // Work queued after this point has no engine to act on; the thread ends here.
        loop.stop()
    }

    private func configure() {
        playbin.set("flags", Self.audioOnlyFlags)
        let filter = AudioFilterFactory.make(replayGain: settings.replayGain)
        if let element = filter.element { playbin.set("audio-filter", element: element) }
        for warning in filter.warnings { continuation.yield(.warning(uri: nil, message: warning)) }
        let tag = Self.nextStreamTag()
        signalHandlers.append(StreamProperties.install(
            on: playbin, application: settings.application, role: settings.role, tag: tag))
        let built = AudioSinkFactory.make(for: settings.output)
        let sink = SinkVolumeControl.ensured(on: built.sink)
        playbin.set("audio-sink", element: sink)
        audioSink = sink
        gst_object_unref(sink)
        for warning in built.warnings { continuation.yield(.warning(uri: nil, message: warning)) }

        // Streaming threads never hold the pipeline, even briefly: if they did and the last other
        // reference went away, deinit would run there and wait for that very thread to stop.
        // The weak reference is only read on the loop thread.
        let (loop, engine) = (loop, WeakPipeline(self))
        // Holds what playbin drops at a gapless switch until it is safely at NULL.
        signalHandlers.append(RemovedElementReaper.install(on: playbin, loop: loop))
        signalHandlers.append(GaplessFeeder.install(on: playbin, sink: sink, handoff: handoff) { generation, finishing, next in
            loop.execute { engine.value?.aboutToFinish(generation: generation, finishing: finishing, next: next) }
        })
        signalHandlers += volumeWatcher.install(on: playbin) {
            loop.execute { engine.value?.volumeMayHaveChanged() }
        }
        routeMonitor = PulseRouteMonitor(
            loop: loop, tag: tag, report: { route, change in engine.value?.routeChanged(route, change) },
            unavailable: { warning in engine.value?.routeUnavailable(warning: warning) })
        signalHandlers.append(PulseSinkWatcher.install(on: playbin) { sink in
            loop.execute {
                if let engine = engine.value { engine.pulseSinkAppeared(sink) } else { gst_object_unref(sink.element.pointer.asObject) }
            }
        })
        BusBridge.install(on: playbin, handoff: handoff) { message in
            loop.execute { engine.value?.handle(message) }
        }
    }

    // MARK: Commands (any thread; see PlaybackEngine for what each means)

    /// Replaces the current URI; see ``PlaybackEngine/load(_:)``.
    func load(_ uri: String) {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !isRetired else { return }
            restart(with: uri)
        }
    }

    /// Queues the gapless follower; see ``PlaybackEngine/setNext(_:)``.
    func setNext(_ uri: String?) {
        // Through the loop, so it lands after a load() issued just before it (load clears it).
        positionCache.invalidate()
        loop.execute { [self] in
            guard !isRetired else { return }
            queueNext(uri)
        }
    }

    /// Plays the loaded URI; after end-of-stream, from its start again.
    func play() {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !isRetired else { return }
            session.target = .playing
            if lifecycle.hasEnded {
                // A finished pipeline stays at its end; playing again means from the start.
                restart(with: session.currentURI)
            } else {
                applyTarget()
            }
        }
    }

    /// Pauses (prerolls, when stopped).
    func pause() {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !isRetired else { return }
            session.target = .paused
            applyTarget()
        }
    }

    /// Stops and resets to the start of the current track, forgetting the queued next URI.
    func stop() {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !isRetired else { return }
            session.target = .stopped
            restart(with: session.currentURI)
        }
    }

    /// Seeks accurately; reported by ``PlaybackEvent/seekCompleted(microseconds:)``.
    func seek(toMicroseconds microseconds: Int64) {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !isRetired, session.loadedURI != nil else { return }
            seek(toMicroseconds: microseconds, reported: true)
        }
    }

    /// Sets the rate (0.25…4), kept across gapless switches.
    func setRate(_ rate: Double) {
        let clamped = min(max(rate, 0.25), 4.0)
        positionCache.invalidate()
        loop.execute { [self] in
            session.rate = clamped
            guard !isRetired, lifecycle.isPrerolled, session.appliedRate != clamped else { return }
            seek(toMicroseconds: position() ?? 0, reported: false)
        }
    }

    /// Sets the linear volume (0…10): the sound server's stream volume when the output has one,
    /// otherwise a software volume.
    func setVolume(_ volume: Double) {
        // playbin's volume property tops out at 10 (+20 dB).
        let clamped = min(max(volume, 0), 10)
        positionCache.invalidate()
        loop.execute { [self] in
            session.requestedVolume = clamped
            applyVolume(force: true)
            settlePositionIfPaused()
        }
    }

    /// Mutes or unmutes.
    func setMuted(_ muted: Bool) {
        positionCache.invalidate()
        loop.execute { [self] in
            session.level.muted = muted
            playbin.set("mute", muted)
            settlePositionIfPaused()
        }
    }

    /// Queries the position in microseconds; callable from any thread.
    func position() -> Int64? {
        positionCache.value { [playbin] in
            // Queries are thread-safe in GStreamer, so this needs no trip through the loop.
            var nanoseconds: gint64 = 0
            guard gst_element_query_position(playbin, GST_FORMAT_TIME, &nanoseconds) != 0,
                  nanoseconds >= 0 else { return nil }
            return ClockTime.microseconds(fromNanoseconds: nanoseconds)
        }
    }

    /// Lets the position cache keep its answers while the pipeline sits in PAUSED, prerolled,
    /// with no state change and no seek under way (loop thread). Every change the engine makes
    /// to the pipeline invalidates the cache first, on this thread, so a settled answer cannot
    /// outlive the pause it was taken in.
    func settlePositionIfPaused() {
        guard !isRetired, lifecycle.isPrerolled, session.seeking.pending == nil,
              session.seeking.userTarget == nil else { return }
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        guard gst_element_get_state(playbin, &current, &pending, 0) == GST_STATE_CHANGE_SUCCESS,
              current == GST_STATE_PAUSED, pending == GST_STATE_VOID_PENDING else { return }
        positionCache.settle()
    }

    /// Queries the duration in microseconds; callable from any thread.
    func duration() -> Int64? {
        var nanoseconds: gint64 = 0
        guard gst_element_query_duration(playbin, GST_FORMAT_TIME, &nanoseconds) != 0,
              nanoseconds >= 0 else { return nil }
        return ClockTime.microseconds(fromNanoseconds: nanoseconds)
    }

    /// Tears the pipeline down and waits for that, but no longer than twice the settings'
    /// patience: a pipeline stuck in GStreamer is abandoned rather than waited for (the process
    /// is usually on its way out).
    func shutdown() {
        guard !isAbandoned else { return }
        let finished = DispatchSemaphore(value: 0)
        let work: @Sendable () -> Void = { [self] in
            defer { finished.signal() }
            guard !isRetired else { return }
            perform(lifecycle.handle(.shutDownRequested))
        }
        if loop.isCurrentThread { return work() }
        loop.execute(work)
        if finished.wait(timeout: .now() + (settings.stuckPatience * 2).dispatchInterval) == .timedOut {
            continuation.yield(.warning(uri: nil, message: "GStreamer did not let go of the pipeline at shutdown"))
            abandon()
        }
    }

    /// Stops following the output and takes the pipeline to NULL for good (loop thread).
    func releaseOutput() {
        routeMonitor?.disconnect()
        if let pulseSink { gst_object_unref(pulseSink.element.pointer.asObject) }
        pulseSink = nil
        Self.tearDown(playbin, handlers: signalHandlers)
        signalHandlers.removeAll()
    }

    /// Idempotent: a second teardown finds no handlers. Returns whether the pipeline is at NULL.
    /// Retries NULL like a stop does, with nobody left to report a refusal to.
    @discardableResult
    private static func tearDown(_ playbin: UnsafeMutablePointer<GstElement>, handlers: [gulong]) -> Bool {
        let result = setToNull(playbin)
        BusBridge.uninstall(from: playbin)
        for handler in handlers where g_signal_handler_is_connected(playbin, handler) != 0 {
            g_signal_handler_disconnect(playbin, handler)
        }
        return result != GST_STATE_CHANGE_FAILURE
    }

    // MARK: Abandonment

    /// Called by the engine once it has replaced this pipeline: nothing it does is reported
    /// any more.
    func abandon() {
        abandonment.store(true, ordering: .releasing)
    }

    var isAbandoned: Bool { abandonment.load(ordering: .acquiring) }

    /// Shut down, or abandoned by the engine: either way, commands and messages are ignored.
    var isRetired: Bool { lifecycle.isRetired || isAbandoned }

    // MARK: Pipeline control (loop thread)

    /// Tears the pipeline down to NULL and starts a new generation on `uri` (nil: nothing
    /// loaded). Going through NULL is what stops a broken file's error storm from leaking into
    /// the next one; the new generation makes any of its late messages recognisable.
    func restart(with uri: String?) {
        guard stopPipeline() else { return }
        unpinPulseSink()
        session.begin(generation: handoff.reset(feeding: uri), uri: uri)
        perform(lifecycle.handle(.generationBegan))
        if let uri { playbin.set("uri", uri) }
        applyTarget()
    }

    /// Moves the pipeline towards what the user asked for.
    func applyTarget() {
        guard session.loadedURI != nil else {
            report(.stopped)
            return
        }
        switch session.target {
        case .stopped:
            guard stopPipeline() else { return }
            report(.stopped)
        case .paused:
            perform(lifecycle.handle(.startRequested))
            positionCache.invalidate()
            gst_element_set_state(playbin, GST_STATE_PAUSED)
        case .playing:
            perform(lifecycle.handle(.startRequested))
            positionCache.invalidate()
            // While a stream refills its buffer it waits paused; BUFFERING 100 resumes it.
            gst_element_set_state(playbin, session.bufferingPercent == nil ? GST_STATE_PLAYING : GST_STATE_PAUSED)
        }
    }

    /// Sets `playbin` to NULL, up to ``PipelineLifecycle/stopAttempts`` times while it fails;
    /// returns the last result. For the teardown, which has no lifecycle left to drive it.
    private static func setToNull(_ playbin: UnsafeMutablePointer<GstElement>) -> GstStateChangeReturn {
        var result = GST_STATE_CHANGE_FAILURE
        for _ in 0..<PipelineLifecycle.stopAttempts where result == GST_STATE_CHANGE_FAILURE {
            result = gst_element_set_state(playbin, GST_STATE_NULL)
        }
        return result
    }

    func report(_ state: PlaybackState) {
        guard session.reportedState != state else { return }
        session.reportedState = state
        emit(.stateChanged(state))
    }

    func emit(_ event: PlaybackEvent) {
        guard !isAbandoned else { return }
        continuation.yield(event)
    }
}
