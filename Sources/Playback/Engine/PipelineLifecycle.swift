/// Where one ``GStreamerPipeline`` is in its life, and which of GStreamer's failures it is working
/// around: a value, changed only by ``handle(_:)``, which returns what the pipeline is to do.
///
/// The pipeline owns one on its loop thread, feeds it every event below and performs the actions
/// it returns; it decides nothing about its own lifecycle elsewhere. GStreamer's settled states
/// (PAUSED, PLAYING, buffering) are facts it reports as they arrive, not decisions, so they are not
/// phases here.
///
/// Phases, with the reason for each workaround state:
///
/// | phase | meaning |
/// |---|---|
/// | `atNull` | at NULL: nothing loaded, or a URI loaded and not yet started |
/// | `prerolling` | asked for PAUSED or PLAYING; seeks wait for the preroll |
/// | `prerolled` | ASYNC_DONE seen in this generation: seeks go straight through |
/// | `ended` | end-of-stream; the pipeline sits at its end, so playing again restarts |
/// | `stopping(attempt:)` | a change to NULL can fail when a queued track failed while starting; a retry succeeds |
/// | `stopReturned(succeeded:)` | the change returned; a slow one may have been reported stuck meanwhile, so the engine's verdict decides |
/// | `refusedToStop` | every attempt failed; the engine is asked to replace the pipeline |
/// | `shutDown`, `abandoned` | retired: commands and messages are ignored, the output is released |
///
/// Transitions (any phase not listed ignores the event; retired phases ignore every event):
///
/// | from | event | to | actions |
/// |---|---|---|---|
/// | live | `generationBegan` | `atNull` | (forgets the set-aside URI and the seek reload) |
/// | `atNull` | `startRequested` | `prerolling` | |
/// | live, not ended | `prerolled` | `prerolled` | |
/// | `ended` | `prerolled` | `ended` (prerolled) | |
/// | live | `endOfStream` | `ended` | |
/// | live | `stopRequested` | `stopping(1)` | `setToNull` |
/// | `stopping(n)` | `setToNullReturned(false)`, n < ``stopAttempts`` | `stopping(n+1)` | `setToNull` |
/// | `stopping(n)` | `setToNullReturned(ok)` otherwise | `stopReturned(ok)` | |
/// | `stopReturned` | `engineVerdict(abandoned)` | `abandoned` | `retire` |
/// | `stopReturned(true)` | `engineVerdict(kept)` | `atNull` | |
/// | `stopReturned(false)` | `engineVerdict(kept)` | `refusedToStop` | `reportStuck(refused)` |
/// | `refusedToStop` | `engineVerdict(abandoned)` | `abandoned` | `retire` |
/// | `refusedToStop` | `engineVerdict(kept)` | `atNull` | (no engine took it over: go on) |
/// | live | `shutDownRequested` | `shutDown` | `retire` |
/// | live | `reloadedToSeek(uri)` | unchanged | (its next start is not announced) |
/// | live | `setAside(uri)` | unchanged | (the rest of its error storm is ignored) |
/// | live | `error` | unchanged | `respond` with one of ``ErrorResponse`` |
/// | live | `streamStarted` | unchanged | `announceTrack`, unless it is the seek reload's own start |
///
/// Outside this value, on other threads (they cannot wait for the loop thread, which may be the
/// one blocked in GStreamer):
/// - `StateChangeWatchdog`: `stopping` outlasting the patience makes the engine abandon the
///   pipeline from the watchdog's thread; the lifecycle learns it as `engineVerdict(abandoned)`,
///   read only after that report has been handled (the watchdog waits for it), so a change that
///   was merely slow never goes on in a pipeline the engine is replacing.
/// - `GStreamerPipeline.shutdown()`: a shutdown not done within twice the patience abandons too.
/// - ``GaplessHandOffGate``: about-to-finish waits for an upward pipeline state change first.
/// - `RemovedElementReaper`: elements playbin drops at a switch are held until the loop sets them
///   to NULL, so a concurrent state change never leaves the last reference on a PLAYING element.
///
/// Beside it, per generation in `EngineSession`:
/// - ``SeekHandOff``: seeks wait for the preroll, the next URI is held back while a seek is due,
///   and a seek with a track already handed over reloads instead, because playbin drops a
///   handed-over track at a flushing seek;
/// - buffering, still decided in place: while a stream refills, a PLAYING target waits at PAUSED.
struct PipelineLifecycle: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        case atNull
        case prerolling
        case prerolled
        case ended(prerolled: Bool)
        case stopping(attempt: Int)
        case stopReturned(succeeded: Bool)
        case refusedToStop
        case shutDown
        case abandoned
    }

    enum Event: Equatable, Sendable {
        /// A new pipeline generation was set up after a stop (a load, a reset, a reload).
        case generationBegan
        /// The pipeline was asked for PAUSED or PLAYING.
        case startRequested
        /// ASYNC_DONE.
        case prerolled
        /// EOS.
        case endOfStream
        case stopRequested
        case setToNullReturned(succeeded: Bool)
        /// Whether the engine has abandoned this pipeline, read once a stop has returned or the
        /// engine has been told it failed.
        case engineVerdict(abandoned: Bool)
        case shutDownRequested
        /// The current track was reloaded only to seek in it (after a switch gone wrong, or a seek
        /// that would have lost a handed-over track): its STREAM_START is not a new track.
        case reloadedToSeek(uri: String)
        /// An error from `uri`, which is not audible, made the pipeline reload the audible track.
        case setAside(uri: String)
        case error(ErrorSource)
        /// STREAM_START of `uri`; `isSwitch` when it is not the generation's first stream.
        case streamStarted(uri: String, isSwitch: Bool)
    }

    enum Action: Equatable, Sendable {
        case setToNull
        /// Ask the engine to replace this pipeline, then feed back its verdict.
        case reportStuck(StuckReason)
        /// Release the output and take the pipeline to NULL for good.
        case retire
        case respond(ErrorResponse)
        /// Report `trackStarted` and the track's details.
        case announceTrack
    }

    /// Why the engine is asked to replace a pipeline.
    enum StuckReason: Equatable, Sendable, CustomStringConvertible {
        /// Every attempt at NULL failed.
        case refused(attempts: Int)
        /// A change to NULL is still blocked after the patience (reported by the watchdog).
        case didNotFinish(patience: Duration)

        var description: String {
            switch self {
            case .refused(let attempts): "GStreamer could not stop the pipeline (\(attempts) attempts)"
            case .didNotFinish(let patience):
                "GStreamer did not finish stopping the pipeline within \(patience): it is stuck"
            }
        }
    }

    /// Attempts at NULL before the pipeline counts as refusing to stop. A change to NULL fails
    /// when a queued next track failed while still trying to reach PAUSED: the pipeline's
    /// PLAYING→PAUSED step fails with it, the pipeline stays at PAUSED, and a URI set on it then
    /// never plays. Another attempt reaches NULL; the third is margin.
    static let stopAttempts = 3
    /// Switches playbin fails itself that are retried (from a reload) before the error counts.
    static let switchRetries = 2

    private(set) var phase = Phase.atNull
    /// A URI not audible whose error made the pipeline reload: the rest of its error storm can
    /// still arrive in the reloaded generation, and is the same failure.
    private(set) var failedAside: String?
    /// The URI reloaded only to seek in it, until its STREAM_START.
    private(set) var reloadedToSeek: String?
    /// Switches failed by playbin itself since a track last started; kept across the reloads
    /// that retry them.
    private(set) var failedSwitches = 0

    /// Shut down or abandoned: nothing is reported, no command acts.
    var isRetired: Bool { phase == .shutDown || phase == .abandoned }

    /// Whether seeks and rate changes can go to the pipeline now.
    var isPrerolled: Bool {
        switch phase {
        case .prerolled, .ended(prerolled: true): true
        default: false
        }
    }

    var hasEnded: Bool {
        if case .ended = phase { true } else { false }
    }

    /// Applies `event` and returns what the pipeline is to do, in order.
    mutating func handle(_ event: Event) -> [Action] {
        guard !isRetired else { return [] }
        switch (phase, event) {
        case (.stopping(let attempt), .setToNullReturned(let succeeded)):
            if !succeeded, attempt < Self.stopAttempts {
                phase = .stopping(attempt: attempt + 1)
                return [.setToNull]
            }
            phase = .stopReturned(succeeded: succeeded)
            return []
        case (.stopReturned, .engineVerdict(abandoned: true)), (.refusedToStop, .engineVerdict(abandoned: true)):
            phase = .abandoned
            return [.retire]
        case (.stopReturned(succeeded: true), .engineVerdict), (.refusedToStop, .engineVerdict):
            phase = .atNull
            return []
        case (.stopReturned(succeeded: false), .engineVerdict):
            phase = .refusedToStop
            return [.reportStuck(.refused(attempts: Self.stopAttempts))]
        case (.stopping, _), (.stopReturned, _), (.refusedToStop, _):
            // A stop runs to its end within one turn of the loop: nothing else can come between.
            return []
        case (_, .shutDownRequested):
            phase = .shutDown
            return [.retire]
        case (_, .stopRequested):
            phase = .stopping(attempt: 1)
            return [.setToNull]
        case (_, .generationBegan):
            phase = .atNull
            failedAside = nil
            reloadedToSeek = nil
            return []
        case (.atNull, .startRequested):
            phase = .prerolling
            return []
        case (.ended, .prerolled):
            phase = .ended(prerolled: true)
            return []
        case (_, .prerolled):
            phase = .prerolled
            return []
        case (_, .endOfStream):
            phase = .ended(prerolled: isPrerolled)
            return []
        case (_, .reloadedToSeek(let uri)):
            reloadedToSeek = uri
            return []
        case (_, .setAside(let uri)):
            failedAside = uri
            return []
        case (_, .error(let source)):
            return [.respond(respond(to: source))]
        case (_, .streamStarted(let uri, let isSwitch)):
            if !isSwitch, reloadedToSeek == uri {
                reloadedToSeek = nil
                return []
            }
            failedSwitches = 0
            return [.announceTrack]
        case (_, .startRequested), (_, .setToNullReturned), (_, .engineVerdict):
            return []
        }
    }

    /// Decides, and counts a switch retry when that is the answer.
    private mutating func respond(to source: ErrorSource) -> ErrorResponse {
        if let origin = source.originURI, origin == failedAside { return .ignore }
        if source.fromDecoderWithoutURI, let next = source.handedOver, failedSwitches < Self.switchRetries {
            failedSwitches += 1
            return .retrySwitch(next: next)
        }
        // Also when the URI is not among those handed over: whatever playbin was switching to
        // failed, and a reload is what gets the audible track going again.
        if let origin = source.originURI, origin != source.currentURI { return .setAside(failed: origin) }
        return .stop(failed: source.originURI ?? source.currentURI)
    }
}
