import EventLoop
public import LibraryFormats
import Logging
import PlayerCore
import Timekeeping

/// Follows the current track's synced lyrics on the player's loop thread: it knows which line
/// is current and tells its listener exactly when that changes.
///
/// One timer at most, for the next line change only, armed from the player's position and rate
/// whenever the playback clock may have moved (a publication, a seek, a rate change, play or
/// pause) and from its own expiry. None runs while nothing plays, and none while the screen is
/// off (locked or blank): nobody sees the line then, and a paused or locked daemon must not
/// wake. When the screen comes back the current line is announced at once.
///
/// The rule itself is ``LyricTimeline``; this class only reads the player and owns the timer.
public final class LyricsFollower: Sendable {
    /// What the listener hears.
    public enum Change: Sendable, Equatable {
        /// The line shown now ("" before the first line, between tracks, while stopped).
        case line(String)
        /// The synced lines were replaced: they belong to queue entry `entryID` now (nil: none).
        case lines(entryID: UInt64?)
    }

    private let player: PlayerController
    private let state: LoopBound<FollowerState>
    private let logger = Logger(label: "linnet.lyrics")

    /// A follower of `player`'s current track; silent until ``start(listener:)``.
    public init(player: PlayerController) {
        self.player = player
        state = LoopBound(FollowerState(), loop: player.owner.loop)
    }

    /// Starts following: from now on every change of the player's clock re-arms the timer.
    /// `listener` hears changes on the loop thread.
    public func start(listener: @escaping @Sendable (Change) -> Void) {
        let loop = state.loop
        loop.sync {
            state.value.listener = listener
            player.owner.value.playbackObserver = { [weak self] effects in
                self?.resync(fromTimer: false, jumped: effects.contains(where: \.jumpsPlaybackPosition))
            }
            resync(fromTimer: false)
        }
    }

    /// Stops following and cancels the timer.
    public func stop() {
        state.loop.sync {
            state.value.isStopped = true
            state.value.timer?.cancel()
            state.value.timer = nil
            state.value.listener = nil
        }
    }

    /// The screen was turned on (true) or off: locked, blanked, or the session idle.
    public func setScreenOn(_ on: Bool) {
        let state = self.state
        state.loop.perform { [weak self] in
            guard state.value.screenOn != on else { return }
            state.value.screenOn = on
            self?.logger.debug("lyrics: the screen is \(on ? "on" : "off")")
            self?.resync(fromTimer: false)
        }
    }

    /// The line shown now: the one last announced, or while the screen is off (and nothing is
    /// announced) the line at the player's position this instant.
    ///
    /// Announced, not recomputed, while the screen is on: a Get must agree with the signals. A
    /// paused sink settles a few milliseconds past where the pause was asked, and a line it
    /// crosses then was never announced (no timer runs while paused); it is when play resumes.
    public var currentLine: String {
        state.loop.sync {
            // The lines are the current track's: every change of it is published, and each
            // publication has the follower adopt them.
            state.value.screenOn ? state.value.announced : moment(clock()).text
        }
    }

    /// The current track's synced lines, and the queue entry they belong to (nil when none).
    public var lines: (entryID: UInt64?, lines: [Lyrics.SyncedLine]) {
        state.loop.sync { (state.value.linesEntryID, state.value.timeline.lines) }
    }

    /// What the follower needs of the player's state, read on the loop thread.
    private struct Clock {
        /// The track shown, unless an alarm replaces it.
        var current: TrackItem?
        /// Whether a track is loaded and not stopped, and no alarm replaces it.
        var active: Bool
        var playing: Bool
        var rate: Double
    }

    private func clock() -> Clock {
        let snapshot = player.owner.value.machine.snapshot
        // A ringing alarm replaces the track on every display; a stopped player sings nothing.
        let current = snapshot.alarm == nil ? snapshot.current : nil
        let active = current != nil && snapshot.transport != .stopped
        return Clock(current: current, active: active, playing: active && snapshot.transport == .playing, rate: snapshot.rate)
    }

    /// The moment at the player's position, asked of the engine only when there are lines to
    /// place it among: most tracks have none, and this runs at every publication.
    private func moment(_ clock: Clock) -> LyricTimeline.Moment {
        placed(clock).moment
    }

    /// The moment, and the position it was placed at (nil when none was needed).
    private func placed(_ clock: Clock) -> (moment: LyricTimeline.Moment, position: Int64?) {
        let timeline = state.value.timeline
        guard clock.active, !timeline.lines.isEmpty else { return (LyricTimeline.Moment(lineIndex: nil, text: "", nextChange: nil), nil) }
        var position = player.owner.value.currentPosition().inMicroseconds
        // Within one entry the position moves only forward unless an input said it jumped (a
        // seek, a restart, a load). An earlier answer comes from the next track, already playing
        // gaplessly before the player has heard that it started: keep to the last position.
        if let last = state.value.lastPosition, position < last { position = last }
        state.value.lastPosition = position
        let moment = timeline.moment(atMicroseconds: position, rate: clock.rate, playing: clock.playing, screenOn: state.value.screenOn)
        return (moment, position)
    }

    /// Brings the announced line up to date and arms the timer for the next change, if any.
    private func resync(fromTimer: Bool, jumped: Bool = false) {
        let follower = state.value
        guard !follower.isStopped else { return }
        let clock = self.clock()
        if follower.adopt(clock.current) { follower.listener?(.lines(entryID: follower.linesEntryID)) }
        if jumped || !clock.active || clock.current?.entry.id != follower.positionEntryID {
            follower.lastPosition = nil
            follower.positionEntryID = clock.current?.entry.id
        }
        let (now, position) = placed(clock)

        // The timer was armed for the line after `armedFrom`. Still on that line, it fired early:
        // the audio clock lags the timer (wait what is left), or the position stands still while
        // "playing" (a stalled stream: back off).
        let early = fromTimer && now.lineIndex == follower.armedFrom
        let earlyBefore = follower.earlyWakeUps
        follower.stalledWakeUps = early && position == follower.armedAt ? follower.stalledWakeUps + 1 : 0
        follower.earlyWakeUps = early ? follower.earlyWakeUps + 1 : 0
        if follower.screenOn, now.text != follower.announced {
            follower.announced = now.text
            if fromTimer, let index = now.lineIndex, let position {
                let starts = follower.timeline.lines[index].timeMicroseconds
                logger.debug("""
                    lyrics: line \(index + 1) at \(position / 1000) ms, \((position - starts) / 1000) ms after it starts \
                    (\(earlyBefore) early wake-ups before it)
                    """)
            }
            follower.listener?(.line(now.text))
        }

        follower.timer?.cancel()
        follower.timer = nil
        guard let due = now.nextChange else { return }
        let wait = follower.stalledWakeUps > 0 ? LyricTimeline.retryDelay(due: due, stalledWakeUps: follower.stalledWakeUps) : due
        follower.armedFrom = now.lineIndex
        follower.armedAt = position
        follower.timer = state.loop.timer(after: wait) { [weak self, weak follower] in
            // Expired: forget it first, so the re-arm below does not cancel the source running now.
            follower?.timer = nil
            self?.resync(fromTimer: true)
            return .remove
        }
    }
}

/// The follower's state; only the loop thread touches it.
private final class FollowerState {
    /// Which texts the timeline was made from.
    struct Source: Equatable {
        var entryID: UInt64
        var tagText: String?
        var sidecarText: String?
    }

    var source: Source?
    var timeline = LyricTimeline(lines: [])
    var listener: (@Sendable (LyricsFollower.Change) -> Void)?
    /// The line last announced.
    var announced = ""
    var screenOn = true
    var timer: EventSource?
    /// The line current when the timer was armed: still current when it fires means it fired early.
    var armedFrom: Int?
    /// The position the timer was armed at.
    var armedAt: Int64?
    /// Timer expiries in a row before the line had begun (counted for the debug log)…
    var earlyWakeUps = 0
    /// …and those at which the position had not moved at all since the timer was armed.
    var stalledWakeUps = 0
    var isStopped = false
    /// The last position placed, and the entry it was in: positions never go back without a jump.
    var lastPosition: Int64?
    var positionEntryID: UInt64?

    /// The entry whose lines ``timeline`` holds; nil when it holds none.
    var linesEntryID: UInt64? { timeline.lines.isEmpty ? nil : source?.entryID }

    /// Takes the lines of `item` (nil: none); true when ``linesEntryID`` or the lines changed.
    /// The texts are compared before anything is parsed: unchanged texts are the common case.
    func adopt(_ item: TrackItem?) -> Bool {
        let next = item.map { item in
            let (tag, sidecar) = TrackLyrics.texts(of: item.facts)
            return Source(entryID: item.entry.id, tagText: tag, sidecarText: sidecar)
        }
        guard next != source else { return false }
        let before = (linesEntryID, timeline.lines)
        source = next
        let lines = next.flatMap { TrackLyrics.resolve(tagText: $0.tagText, sidecarText: $0.sidecarText)?.synced } ?? []
        timeline = LyricTimeline(lines: lines)
        return before != (linesEntryID, lines)
    }
}

extension PlayerEffect {
    /// Whether the effect may make the position jump or restart its count: a seek, a restart,
    /// a load, a stop, pause and play (the sink settles a little before or after where the
    /// pause was asked), a publication of a new position. The position may then go back.
    var jumpsPlaybackPosition: Bool {
        switch self {
        case .seeked, .engine(.seek), .engine(.load), .engine(.stop), .engine(.play), .engine(.pause),
             .publish(_, .at, _), .publish(_, .engineNow, _): true
        default: false
        }
    }

    /// Whether the effect may move the playback clock (position, rate, play/pause) or change
    /// what is current: the lyrics follower re-arms its timer after these.
    var touchesPlaybackClock: Bool {
        switch self {
        case .publish, .seeked, .engine: true
        default: false
        }
    }
}
