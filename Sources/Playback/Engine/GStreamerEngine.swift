import Synchronization

/// The ``PlaybackEngine`` on GStreamer's playbin.
///
/// The work happens in a ``GStreamerPipeline`` running on its own thread, away from D-Bus. This
/// type adds one guarantee on top: a pipeline that GStreamer never lets go of does not end
/// playback. When a change to NULL outlasts its patience, the engine abandons that pipeline (and
/// its thread, which GStreamer holds), builds a fresh one from the same settings and brings it to
/// what the user last asked for: the same URI, follower, target state, volume, mute and rate.
public final class GStreamerEngine: PlaybackEngine, Sendable {
    /// Everything the engine reports, in order; see ``PlaybackEvent``.
    public let events: AsyncStream<PlaybackEvent>
    private let continuation: AsyncStream<PlaybackEvent>.Continuation
    private let settings: EngineSettings
    private let intent = EngineIntentStore()
    private let pipeline: Mutex<GStreamerPipeline?>
    /// Whether ``shutdown()`` ran: the pipeline is built on the first command, never after.
    private let isShutDown = Atomic<Bool>(false)

    /// Creates an engine playing to `output`, introducing itself as `application` playing
    /// `role` sounds to the sound server, levelling loudness per `replayGain`, and writing
    /// embedded cover art to `artCache`. Problems with the output are not fatal: the engine falls
    /// back and reports a ``PlaybackEvent/warning(uri:message:)`` first.
    ///
    /// With a `headphoneVolumeCap` (0…1, linear like ``setVolume(_:)``), the output never plays
    /// louder than the cap while it goes to headphones (see ``OutputRoute/isPrivateListening``),
    /// nor before the sound server has said where it goes; the volume set stays as set and
    /// applies in full again when the route changes to speakers.
    public convenience init(
        output: AudioOutput = .system, application: ApplicationIdentity = .linnet, role: MediaRole = .music,
        replayGain: ReplayGainMode = .off, artCache: ArtCache = .standard(), headphoneVolumeCap: Double? = nil
    ) {
        self.init(settings: EngineSettings(
            output: output, application: application, role: role, replayGain: replayGain, artCache: artCache,
            headphoneVolumeCap: headphoneVolumeCap.map { min(max($0, 0), 1) }))
    }

    /// Creates an engine whose pipelines are built as `settings` say.
    init(settings: EngineSettings) {
        self.settings = settings
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        // The pipeline is built by the first command: building it initialises GStreamer and
        // its sink (an alarm engine's autoaudiosink probes and loads every sink plugin), which
        // must delay neither the bus name nor cost memory in an engine that never plays.
        pipeline = Mutex(nil)
    }

    deinit {
        continuation.finish()
    }

    // MARK: Commands

    /// Replaces the current URI; see ``PlaybackEngine/load(_:)``.
    public func load(_ uri: String) {
        command({ $0.moved(to: uri) }) { $0.load(uri) }
    }

    /// Queues the gapless follower; see ``PlaybackEngine/setNext(_:)``.
    public func setNext(_ uri: String?) {
        command({ $0.next = uri }) { $0.setNext(uri) }
    }

    /// Plays the loaded URI; after end-of-stream, from its start again.
    public func play() {
        command({ $0.target = .playing }) { $0.play() }
    }

    /// Pauses (prerolls, when stopped).
    public func pause() {
        command({ $0.target = .paused }) { $0.pause() }
    }

    /// Stops and resets to the start of the current track, forgetting the queued next URI.
    public func stop() {
        command({ $0.target = .stopped; $0.next = nil }) { $0.stop() }
    }

    /// Seeks accurately; reported by ``PlaybackEvent/seekCompleted(microseconds:)``.
    public func seek(toMicroseconds microseconds: Int64) {
        command { $0.seek(toMicroseconds: microseconds) }
    }

    /// Sets the rate (0.25…4), kept across gapless switches.
    public func setRate(_ rate: Double) {
        command({ $0.rate = rate }) { $0.setRate(rate) }
    }

    /// Sets the linear volume (0…10): the sound server's stream volume when the output has one,
    /// otherwise a software volume.
    public func setVolume(_ volume: Double) {
        command({ $0.volume = volume }) { $0.setVolume(volume) }
    }

    /// Mutes or unmutes.
    public func setMuted(_ muted: Bool) {
        command({ $0.muted = muted }) { $0.setMuted(muted) }
    }

    /// Queries the position in microseconds; callable from any thread.
    public func position() -> Int64? { current?.position() }

    /// Queries the duration in microseconds; callable from any thread.
    public func duration() -> Int64? { current?.duration() }

    /// Tears the pipeline down and finishes ``events``; waits for the pipeline's thread.
    public func shutdown() {
        let last = pipeline.withLock { pipeline in
            isShutDown.store(true, ordering: .relaxed)
            defer { pipeline = nil }
            return pipeline
        }
        last?.shutdown()
        continuation.finish()
    }

    // MARK: Replacing a stuck pipeline

    /// The pipeline in use (internal for tests that reach into it).
    var current: GStreamerPipeline? { pipeline.withLock { $0 } }

    /// Records a command in the intent and queues it on the current pipeline under one lock, so
    /// a replacement pipeline either received it already or replays it, never both out of order.
    private func command(
        _ record: (inout EngineIntent) -> Void = { _ in }, _ send: (GStreamerPipeline) -> Void
    ) {
        pipeline.withLock { pipeline in
            intent.update(record)
            if pipeline == nil && !isShutDown.load(ordering: .relaxed) {
                // The first command: the fresh pipeline starts from everything recorded so far.
                let first = makePipeline()
                pipeline = first
                Self.bring(first, to: intent.current)
                return
            }
            if let pipeline { send(pipeline) }
        }
    }

    private func makePipeline() -> GStreamerPipeline {
        GStreamerPipeline(settings: settings, intent: intent, continuation: continuation) { [weak self] stuck, reason in
            self?.replace(stuck, reason: reason)
        }
    }

    /// Runs on the watchdog's thread while `stuck` is still blocked in GStreamer, or on the
    /// pipeline's own thread when GStreamer refused to stop it.
    private func replace(_ stuck: GStreamerPipeline, reason: String) {
        pipeline.withLock { pipeline in
            // Shut down already, or replaced by an earlier report.
            guard let current = pipeline, current === stuck else { return }
            stuck.abandon()
            continuation.yield(.warning(uri: nil, message: "\(reason), so playback goes on in a new one"))
            let fresh = makePipeline()
            Self.bring(fresh, to: intent.current)
            pipeline = fresh
        }
    }

    /// Replays `intent` on a new pipeline, settings first so the first sound has them.
    private static func bring(_ fresh: GStreamerPipeline, to intent: EngineIntent) {
        if let volume = intent.volume { fresh.setVolume(volume) }
        if let muted = intent.muted { fresh.setMuted(muted) }
        if intent.rate != 1.0 { fresh.setRate(intent.rate) }
        if let uri = intent.uri {
            fresh.load(uri)
            fresh.setNext(intent.next)
        }
        switch intent.target {
        case .playing: fresh.play()
        case .paused: fresh.pause()
        case .stopped: break
        }
    }
}
