/// Everything that can change the player, from every source, as values. The owner feeds them to
/// ``PlayerMachine/handle(_:)`` one at a time, in the order they arrived.
public enum PlayerInput: Sendable, Equatable {
    /// The player starts: a saved session or fresh tracks, and the command line's settings.
    case start(PlayerStartup)
    /// A user's command, whatever carried it (MPRIS, the CLI, a notification's button).
    case command(PlayerCommand)
    /// Something the playback engine reported.
    case engine(EngineReport)
    /// The tag scan of one entry finished.
    case scanned(entryID: UInt64, ScanOutcome)
    /// The audio-focus coordinator asks linnet to give way, or says it may go on.
    case focus(FocusRequest)
    /// The clock features (alarm, Pomodoro, sleep timer) take or give back the transport.
    case clock(ClockInput)
    /// linnet is shutting down: give back what is held; publish nothing that takes focus again.
    case shutdown
}

/// What the player starts with.
public struct PlayerStartup: Sendable, Equatable {
    /// A saved session to resume (used when `tracks` is empty).
    public var session: SavedSession?
    /// Fresh tracks to queue.
    public var tracks: [NewTrack]
    /// Whether to start playing at once (else paused).
    public var autoplay: Bool
    /// Settings given on the command line; they override the session's.
    public var repeatMode: RepeatMode?
    /// See ``repeatMode``.
    public var shuffle: Bool?
    /// See ``repeatMode``.
    public var volume: Double?

    /// A start-up request; every setting optional.
    public init(session: SavedSession? = nil, tracks: [NewTrack] = [], autoplay: Bool, repeatMode: RepeatMode? = nil,
                shuffle: Bool? = nil, volume: Double? = nil) {
        self.session = session
        self.tracks = tracks
        self.autoplay = autoplay
        self.repeatMode = repeatMode
        self.shuffle = shuffle
        self.volume = volume
    }
}

/// A track about to enter the queue, with what is already known about it.
public struct NewTrack: Sendable, Equatable {
    /// The URI the engine plays.
    public var uri: String
    /// Hints and tags known before any scan.
    public var facts: TrackFacts

    /// A track for `uri`.
    public init(uri: String, facts: TrackFacts = TrackFacts()) {
        self.uri = uri
        self.facts = facts
    }
}

/// A user's command. The MPRIS server has already applied the spec's rules (Can* checks,
/// clamping) before these arrive.
public enum PlayerCommand: Sendable, Equatable {
    case play, pause, playPause, stop, next, previous
    /// Seek or SetPosition, resolved to an absolute position in the current track.
    case seek(to: Duration)
    /// OpenUri: queue after the current entry and play it.
    case open(NewTrack)
    /// AddTrack: insert after `after` (nil: at the start), optionally playing it.
    case add(NewTrack, after: UInt64?, makeCurrent: Bool)
    /// RemoveTrack.
    case remove(entryID: UInt64)
    /// GoTo: play this entry, retrying it even if it failed before.
    case goTo(entryID: UInt64)
    /// Replace the whole queue and play it; `playlist` becomes the active playlist.
    case replaceQueue([NewTrack], playlist: PlaylistReference?)
    case setRepeatMode(RepeatMode)
    case setShuffle(Bool)
    case setRate(Double)
    case setVolume(Double)
}

/// What the playback engine reported, as far as the player acts on it.
public enum EngineReport: Sendable, Equatable {
    /// The engine is about to finish the current track; `handsOverNext` when it has a next URI.
    case aboutToFinish(handsOverNext: Bool)
    /// The engine started playing `uri` (a load, or a gapless switch).
    case trackStarted(uri: String)
    /// The last track ended with nothing queued after it.
    case endOfStream
    /// A URI failed to play.
    case failed(EngineFailure)
    /// Tags read while playing `uri`.
    case tags(uri: String, TrackTags)
    /// The engine learned the length of `uri`.
    case duration(uri: String, Duration)
    /// The sound server asked to pause (a call started) or to resume (it ended).
    case soundServer(SoundServerAsk)
    /// The user changed linnet's level or mute in the mixer.
    case mixerVolume(Double, muted: Bool)
    /// The output changed; `lostRoute` when the output the listener relied on went away.
    case routeChanged(lostRoute: Bool)
    /// A seek finished.
    case seekCompleted
}

/// A playback failure as the engine reports it.
public struct EngineFailure: Sendable, Equatable {
    /// The URI that failed, when known.
    public var uri: String?
    /// Why, for the user.
    public var message: String
    /// The engine plays the current track on (the failure was the queued next one's).
    public var currentTrackContinues: Bool

    /// A failure of `uri`.
    public init(uri: String?, message: String, currentTrackContinues: Bool = false) {
        self.uri = uri
        self.message = message
        self.currentTrackContinues = currentTrackContinues
    }
}

/// The sound server's requests (PulseAudio's role-cork, PipeWire's policy).
public enum SoundServerAsk: Sendable, Equatable {
    case pause, resume
}

/// The result of reading one entry's tags.
public enum ScanOutcome: Sendable, Equatable {
    /// Tags, length and sidecar lyrics were read.
    case read(TrackTags, duration: Duration?, sidecarLyrics: String?)
    /// The file cannot be played, and why.
    case unreadable(String)
}

/// The audio-focus coordinator's requests.
public enum FocusRequest: Sendable, Equatable {
    /// Another player started: give way.
    case yield
    /// That player stopped: resume if linnet gave way.
    case resume
}

/// The clock features' hold on the transport. They own the transport while an alarm rings or a
/// Pomodoro runs; these inputs set that state, and drive the music past it.
public enum ClockInput: Sendable, Equatable {
    /// An alarm started ringing: the music pauses (to resume afterwards) and MPRIS shows it.
    case alarmStarted(AlarmDisplay)
    /// The ringing alarm ended: the music resumes if the alarm paused it.
    case alarmEnded
    /// The Pomodoro's phase and time left to show (nil: none runs).
    case pomodoro(PomodoroDisplay?)
    /// Play the music (a focus block began); deferred while an alarm rings.
    case playMusic
    /// Pause the music (a break, the sleep timer); it stays paused after an alarm.
    case pauseMusic
    /// Play the music at `level` (0…1) of the volume setting (a sleep-timer fade); 1 restores it.
    case fade(level: Double)
    /// Replace the queue with these tracks and play them (Pomodoro music).
    case replaceQueue([NewTrack])
}

/// A playlist as the player remembers it (the active playlist).
public struct PlaylistReference: Sendable, Hashable {
    /// Its identifier (an object path on MPRIS).
    public var id: String
    /// Its name.
    public var name: String
    /// An icon URI, or "".
    public var icon: String

    /// A playlist reference.
    public init(id: String, name: String, icon: String = "") {
        self.id = id
        self.name = name
        self.icon = icon
    }
}
