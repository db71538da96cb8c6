internal import CGStreamer
import EventLoop
import Foundation

/// The ``PlaybackEngine`` on GStreamer's playbin.
///
/// All pipeline control and all bus messages run on the shared ``EventLoop`` thread, which also
/// carries D-Bus; commands only queue work there and return. The bus has one consumer, a sync
/// handler forwarding to that thread, so an idle or paused engine wakes nothing up. Commands are
/// queued even when issued on the loop thread: a D-Bus handler then publishes the new state and
/// replies before the pipeline changes state (run inline, PlayPause's PropertiesChanged left
/// ~0.8 ms later, waiting on set_state; measured with `make bench`). The only
/// work on GStreamer's streaming threads is handing the queued next URI to playbin in
/// about-to-finish.
public final class GStreamerEngine: PlaybackEngine, @unchecked Sendable {
    /// Everything the engine reports, in order; see ``PlaybackEvent``.
    public let events: AsyncStream<PlaybackEvent>
    let continuation: AsyncStream<PlaybackEvent>.Continuation
    let loop = EventLoop.shared
    let playbin: UnsafeMutablePointer<GstElement>
    let handoff = StreamingHandoff()
    let volumeWatcher = VolumeWatcher()
    let tagReader: TagReader
    /// Touched on the loop thread only; that confinement is what makes the class Sendable.
    var session = EngineSession()
    let positionCache = PositionCache()
    /// The sink playbin plays into; playbin holds it for the engine's life.
    private(set) var audioSink: UnsafeMutablePointer<GstElement>?
    private var signalHandlers: [gulong] = []
    /// Follows the device the stream plays to, once a pulsesink appears (loop thread only).
    private(set) var routeMonitor: PulseRouteMonitor?
    /// The pulsesink in use, referenced, with the device it was configured with (loop thread).
    var pulseSink: PulseSinkSetup?
    /// The most the output volume may be while the route is private listening; nil: no cap.
    let headphoneVolumeCap: Double?

    /// playbin's GstPlayFlags: audio, plus a software volume element so volume and mute apply
    /// to every sink (including capture bins) the same way. Video and subtitles stay off so a
    /// file with a video track never needs a display.
    private static let audioOnlyFlags: UInt32 = 0x02 | 0x10

    /// Creates an engine playing to `output`, introducing itself as `application` playing
    /// `role` sounds to the sound server, levelling loudness per `replayGain`, and writing
    /// embedded cover art to `artCache`. Problems with the output are not fatal: the engine falls
    /// back and reports a ``PlaybackEvent/warning(uri:message:)`` first.
    ///
    /// With a `headphoneVolumeCap` (0…1, linear like ``setVolume(_:)``), the output never plays
    /// louder than the cap while it goes to headphones (see ``OutputRoute/isPrivateListening``),
    /// nor before the sound server has said where it goes; the volume set stays as set and
    /// applies in full again when the route changes to speakers.
    public init(
        output: AudioOutput = .system, application: ApplicationIdentity = .linnet, role: MediaRole = .music,
        replayGain: ReplayGainMode = .off, artCache: ArtCache = .standard(), headphoneVolumeCap: Double? = nil
    ) {
        GStreamerRuntime.ensureInitialized()
        self.headphoneVolumeCap = headphoneVolumeCap.map { min(max($0, 0), 1) }
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        tagReader = TagReader(artCache: artCache)
        guard let made = gst_element_factory_make("playbin", "linnet-playbin") else {
            fatalError("GStreamer's playbin is missing: install gstreamer1.0-plugins-base")
        }
        playbin = UnsafeMutableRawPointer(gst_object_ref_sink(made)!)
            .assumingMemoryBound(to: GstElement.self)
        session.reportedState = .stopped
        configure(output: output, application: application, role: role, replayGain: replayGain)
    }

    deinit {
        // Tear down without capturing `self`: a closure holding an object that is being
        // deinitialised must not outlive this call.
        let (playbin, continuation) = (UncheckedPointer(playbin), continuation)
        let handlers = signalHandlers
        let monitor = routeMonitor
        let pulseSink = pulseSink
        loop.sync {
            monitor?.disconnect()
            Self.tearDown(playbin.pointer, handlers: handlers, continuation: continuation)
        }
        if let pulseSink { gst_object_unref(pulseSink.element.pointer.asObject) }
        gst_object_unref(playbin.pointer)
    }

    private func configure(
        output: AudioOutput, application: ApplicationIdentity, role: MediaRole, replayGain: ReplayGainMode
    ) {
        playbin.set("flags", Self.audioOnlyFlags)
        let filter = AudioFilterFactory.make(replayGain: replayGain)
        if let element = filter.element { playbin.set("audio-filter", element: element) }
        for warning in filter.warnings { continuation.yield(.warning(uri: nil, message: warning)) }
        let tag = Self.nextStreamTag()
        signalHandlers.append(StreamProperties.install(on: playbin, application: application, role: role, tag: tag))
        let built = AudioSinkFactory.make(for: output)
        playbin.set("audio-sink", element: built.sink)
        audioSink = built.sink
        gst_object_unref(built.sink)
        for warning in built.warnings { continuation.yield(.warning(uri: nil, message: warning)) }

        // Streaming threads never hold the engine, even briefly: if they did and the last other
        // reference went away, deinit would run there and wait for that very thread to stop.
        // The weak reference is only read on the loop thread.
        let (loop, engine) = (loop, WeakEngine(self))
        signalHandlers.append(GaplessFeeder.install(on: playbin, handoff: handoff) { generation, finishing, next in
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

    // MARK: Commands

    /// Replaces the current URI; see ``PlaybackEngine/load(_:)``.
    public func load(_ uri: String) {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !session.isShutDown else { return }
            restart(with: uri)
        }
    }

    /// Queues the gapless follower; see ``PlaybackEngine/setNext(_:)``.
    public func setNext(_ uri: String?) {
        // Through the loop, so it lands after a load() issued just before it (load clears it).
        positionCache.invalidate()
        loop.execute { [self] in
            guard !session.isShutDown else { return }
            queueNext(uri)
        }
    }

    /// Plays the loaded URI; after end-of-stream, from its start again.
    public func play() {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !session.isShutDown else { return }
            session.target = .playing
            if session.ended {
                // A finished pipeline stays at its end; playing again means from the start.
                restart(with: session.currentURI)
            } else {
                applyTarget()
            }
        }
    }

    /// Pauses (prerolls, when stopped).
    public func pause() {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !session.isShutDown else { return }
            session.target = .paused
            applyTarget()
        }
    }

    /// Stops and resets to the start of the current track, forgetting the queued next URI.
    public func stop() {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !session.isShutDown else { return }
            session.target = .stopped
            restart(with: session.currentURI)
        }
    }

    /// Seeks accurately; reported by ``PlaybackEvent/seekCompleted(microseconds:)``.
    public func seek(toMicroseconds microseconds: Int64) {
        positionCache.invalidate()
        loop.execute { [self] in
            guard !session.isShutDown, session.loadedURI != nil else { return }
            seek(toMicroseconds: microseconds, reported: true)
        }
    }

    /// Sets the rate (0.25…4), kept across gapless switches.
    public func setRate(_ rate: Double) {
        let clamped = min(max(rate, 0.25), 4.0)
        positionCache.invalidate()
        loop.execute { [self] in
            session.rate = clamped
            guard !session.isShutDown, session.prerolled, session.appliedRate != clamped else { return }
            seek(toMicroseconds: position() ?? 0, reported: false)
        }
    }

    /// Sets the linear volume (0…10): the sound server's stream volume when the output has one,
    /// otherwise a software volume.
    public func setVolume(_ volume: Double) {
        // playbin's volume property tops out at 10 (+20 dB).
        let clamped = min(max(volume, 0), 10)
        positionCache.invalidate()
        loop.execute { [self] in
            session.requestedVolume = clamped
            applyVolume(force: true)
        }
    }

    /// Mutes or unmutes.
    public func setMuted(_ muted: Bool) {
        positionCache.invalidate()
        loop.execute { [self] in
            session.level.muted = muted
            playbin.set("mute", muted)
        }
    }

    /// Queries the position in microseconds; callable from any thread.
    public func position() -> Int64? {
        positionCache.value { [playbin] in
            // Queries are thread-safe in GStreamer, so this needs no trip through the loop.
            var nanoseconds: gint64 = 0
            guard gst_element_query_position(playbin, GST_FORMAT_TIME, &nanoseconds) != 0,
                  nanoseconds >= 0 else { return nil }
            return ClockTime.microseconds(fromNanoseconds: nanoseconds)
        }
    }

    /// Queries the duration in microseconds; callable from any thread.
    public func duration() -> Int64? {
        var nanoseconds: gint64 = 0
        guard gst_element_query_duration(playbin, GST_FORMAT_TIME, &nanoseconds) != 0,
              nanoseconds >= 0 else { return nil }
        return ClockTime.microseconds(fromNanoseconds: nanoseconds)
    }

    /// Tears the pipeline down and finishes ``events``; waits for the loop thread.
    public func shutdown() {
        loop.sync { [self] in
            guard !session.isShutDown else { return }
            session.isShutDown = true
            routeMonitor?.disconnect()
            if let pulseSink { gst_object_unref(pulseSink.element.pointer.asObject) }
            pulseSink = nil
            Self.tearDown(playbin, handlers: signalHandlers, continuation: continuation)
            signalHandlers.removeAll()
        }
    }

    /// Idempotent: a second teardown finds no handlers and a finished stream.
    private static func tearDown(
        _ playbin: UnsafeMutablePointer<GstElement>, handlers: [gulong],
        continuation: AsyncStream<PlaybackEvent>.Continuation
    ) {
        gst_element_set_state(playbin, GST_STATE_NULL)
        BusBridge.uninstall(from: playbin)
        for handler in handlers where g_signal_handler_is_connected(playbin, handler) != 0 {
            g_signal_handler_disconnect(playbin, handler)
        }
        continuation.finish()
    }

    // MARK: Pipeline control (loop thread)

    /// Tears the pipeline down to NULL and starts a new generation on `uri` (nil: nothing
    /// loaded). Going through NULL is what stops a broken file's error storm from leaking into
    /// the next one; the new generation makes any of its late messages recognisable.
    func restart(with uri: String?) {
        gst_element_set_state(playbin, GST_STATE_NULL)
        unpinPulseSink()
        session.begin(generation: handoff.reset(feeding: uri), uri: uri)
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
            gst_element_set_state(playbin, GST_STATE_NULL)
            report(.stopped)
        case .paused:
            gst_element_set_state(playbin, GST_STATE_PAUSED)
        case .playing:
            // While a stream refills its buffer it waits paused; BUFFERING 100 resumes it.
            gst_element_set_state(playbin, session.bufferingPercent == nil ? GST_STATE_PLAYING : GST_STATE_PAUSED)
        }
    }

    func report(_ state: PlaybackState) {
        guard session.reportedState != state else { return }
        session.reportedState = state
        emit(.stateChanged(state))
    }

    func emit(_ event: PlaybackEvent) {
        continuation.yield(event)
    }
}

/// A weak reference to the engine that closures on streaming threads can carry without
/// touching the engine's reference count there.
private final class WeakEngine: Sendable {
    weak let value: GStreamerEngine?
    init(_ value: GStreamerEngine) { self.value = value }
}
