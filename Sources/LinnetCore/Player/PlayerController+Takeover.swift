public import MPRIS
import Synchronization

/// What the clock features show on MPRIS instead of (or over) the music: a ringing alarm, the
/// Pomodoro phase.
public struct PlayerOverlay: Sendable, Equatable {
    /// Replaces the Metadata entirely (a ringing alarm); nil keeps the track's.
    public var metadata: Metadata?
    /// Replaces only the track's title (the Pomodoro phase and time left).
    public var title: String?
    /// Overrides PlaybackStatus (an alarm rings while the music is paused: Playing).
    public var status: PlaybackStatus?
    /// Forces CanGoNext and CanPause on, so Next (snooze) and Stop reach the owner.
    public var controllable = false

    /// An overlay; every part optional.
    public init(metadata: Metadata? = nil, title: String? = nil, status: PlaybackStatus? = nil, controllable: Bool = false) {
        self.metadata = metadata
        self.title = title
        self.status = status
        self.controllable = controllable
    }
}

/// An MPRIS command the clock features may take over (Stop dismisses an alarm, Next snoozes it,
/// PlayPause pauses a Pomodoro).
public enum PlayerCommand: Sendable, Hashable {
    case play, pause, playPause, stop, next
}

/// The clock features' hold on the player: an overlay on MPRIS, commands it takes over, and
/// music control that bypasses that take-over. Kept out of the player's own files on purpose.
final class Takeover: Sendable {
    let overlay = Mutex<PlayerOverlay?>(nil)
    let interceptor = Mutex<(@Sendable (PlayerCommand) -> Bool)?>(nil)
    /// Music paused by ``PlayerController/suspendMusic()``, to resume afterwards.
    let suspended = Mutex(false)
    /// >0 while the clock features drive the player themselves.
    let bypass = Mutex(0)
}

extension PlayerController {
    /// Lets `handler` take over MPRIS commands: it returns true when it handled one (the player
    /// then ignores it).
    public func interceptCommands(_ handler: (@Sendable (PlayerCommand) -> Bool)?) {
        takeover.interceptor.withLock { $0 = handler }
    }

    /// Whether the clock features took `command` over. Called first by each MPRIS command.
    func intercepted(_ command: PlayerCommand) -> Bool {
        guard takeover.bypass.withLock({ $0 }) == 0, let handler = takeover.interceptor.withLock({ $0 }) else { return false }
        return handler(command)
    }

    /// Shows `overlay` on MPRIS (nil removes it) and republishes.
    public func setOverlay(_ overlay: PlayerOverlay?) {
        let changed = takeover.overlay.withLock { current -> Bool in
            defer { current = overlay }
            return current != overlay
        }
        guard changed else { return }
        state.withLock { publish($0) }
    }

    /// Applies the overlay to what is about to be published.
    func applyOverlay(_ mpris: inout MPRISState) {
        guard let overlay = takeover.overlay.withLock({ $0 }) else { return }
        if let metadata = overlay.metadata { mpris.player.metadata = metadata }
        if let title = overlay.title {
            if mpris.player.metadata == .empty {
                // Nothing queued: no track to name, but panels still show the phase.
                mpris.player.metadata = Metadata(trackID: .noTrack, title: title)
            } else {
                mpris.player.metadata.title = title
            }
        }
        if let status = overlay.status { mpris.player.playbackStatus = status }
        if overlay.controllable {
            mpris.player.canGoNext = true
            mpris.player.canPause = true
            mpris.player.canPlay = true
        }
    }

    /// Runs `work` driving the player directly, past any take-over.
    func bypassingTakeover(_ work: () -> Void) {
        takeover.bypass.withLock { $0 += 1 }
        defer { takeover.bypass.withLock { $0 -= 1 } }
        work()
    }

    /// Plays the music (the clock features' own request, not the user's).
    public func playMusic() { bypassingTakeover { play() } }

    /// Pauses the music; it then stays paused after an alarm, whatever was suspended.
    public func pauseMusic() {
        takeover.suspended.withLock { $0 = false }
        bypassingTakeover { pause() }
    }

    /// Whether the music is playing.
    public var isPlayingMusic: Bool { state.withLock { $0.intent == .playing } }

    /// Pauses the music for an alarm, remembering to resume it; nothing if it was not playing.
    public func suspendMusic() {
        guard isPlayingMusic else { return }
        pauseMusic()
        takeover.suspended.withLock { $0 = true }
    }

    /// Asks for the music to play once the alarm is over (a Pomodoro focus block began while it
    /// rang).
    public func playMusicAfterAlarm() {
        takeover.suspended.withLock { $0 = true }
    }

    /// Resumes what ``suspendMusic()`` paused (unless the user started something meanwhile).
    public func resumeSuspendedMusic() {
        guard takeover.suspended.withLock({ value in defer { value = false }; return value }) else { return }
        playMusic()
    }

    /// Plays the music at `factor` (0…1) of the volume setting without changing the setting (a
    /// sleep-timer fade); 1 restores it.
    public func setFadeLevel(_ factor: Double) {
        state.withLock { state in engine.setVolume(state.volume * max(0, min(1, factor))) }
    }

    /// Replaces the queue with `items` and plays them (Pomodoro `--music`).
    public func playItems(_ items: [PlayableItem]) {
        bypassingTakeover { replaceQueue(with: items, playlist: nil) }
    }
}
