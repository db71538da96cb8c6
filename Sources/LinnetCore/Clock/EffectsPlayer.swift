public import EventLoop
import FoundationEssentials
public import Playback
import Synchronization
import Timekeeping

/// Linnet's second voice: alarms and bells on their own engine and stream, so a bell rings over
/// the music and an alarm never disturbs the music's queue or position.
public final class EffectsPlayer: Sendable {
    private struct State {
        var uri: String?
        var looping = false
        /// Ramp: start instant and length; the volume rises linearly to 1 over it.
        var rampStart: ContinuousClock.Instant?
        var rampLength: TimeInterval = 0
        var rampTimer: EventSource?
    }

    private let engine: any PlaybackEngine
    private let state = Mutex(State())
    private let loop: EventLoop
    /// The engine's events until the first sound starts their reader (``readEvents()``).
    private let unreadEvents: Mutex<AsyncStream<PlaybackEvent>?>
    /// Volume steps per second during a ramp (only then does the player wake periodically).
    static let rampStepsPerSecond = 8.0

    /// A player on `engine` (a ``GStreamerEngine`` with the effects output).
    public init(engine: any PlaybackEngine, loop: EventLoop = .shared) {
        self.engine = engine
        self.loop = loop
        unreadEvents = Mutex(engine.events)
    }

    /// Starts reading the engine's events, once, with the first sound: only the end of a sound
    /// matters here, and the daemon makes this player before its bus name, where a task would
    /// start Swift's thread pool.
    private func readEvents() {
        guard let events = unreadEvents.withLock({ $0.take() }) else { return }
        Task.detached { [weak self] in
            for await event in events {
                guard let self else { return }
                self.handle(event)
            }
        }
    }

    /// Plays `uri` until ``stop()``, starting silent and rising to full volume over `ramp`.
    public func ring(_ uri: String, ramp: Duration) {
        readEvents()
        let ramp = ramp.inSeconds
        state.withLock { state in
            state.rampTimer?.cancel()
            state.uri = uri
            state.looping = true
            state.rampLength = ramp
            state.rampStart = ramp > 0 ? .now : nil
            engine.setVolume(ramp > 0 ? 0 : 1)
            engine.load(uri)
            engine.play()
            if ramp > 0 {
                state.rampTimer = loop.timer(after: .milliseconds(Int(1000 / Self.rampStepsPerSecond))) { [weak self] in
                    self?.rampStep() ?? .remove
                }
            }
        }
    }

    /// Plays `uri` once at full volume (a bell), replacing whatever this player plays.
    public func chime(_ uri: String) {
        readEvents()
        state.withLock { state in
            state.rampTimer?.cancel()
            state.rampTimer = nil
            state.uri = uri
            state.looping = false
            engine.setVolume(1)
            engine.load(uri)
            engine.play()
        }
    }

    /// Stops the sound.
    public func stop() {
        state.withLock { state in
            state.rampTimer?.cancel()
            state.rampTimer = nil
            state.uri = nil
            state.looping = false
            engine.stop()
        }
    }

    /// Releases the engine.
    public func shutdown() {
        stop()
        engine.shutdown()
    }

    private func rampStep() -> SourceDisposition {
        state.withLock { state in
            guard let start = state.rampStart, state.uri != nil else { return .remove }
            let elapsed = start.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let level = min(1, seconds / state.rampLength)
            engine.setVolume(level)
            if level >= 1 {
                state.rampStart = nil
                state.rampTimer = nil
                return .remove
            }
            return .keep
        }
    }

    private func handle(_ event: PlaybackEvent) {
        guard case .endOfStream = event else { return }
        state.withLock { state in
            guard state.looping, let uri = state.uri else {
                if state.uri != nil {
                    state.uri = nil
                    engine.stop()
                }
                return
            }
            engine.load(uri)
            engine.play()
        }
    }
}
