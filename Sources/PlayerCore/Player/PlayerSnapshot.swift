/// The player's state as clients see it, made by the machine after every change. An adapter maps
/// it to MPRIS properties; nothing in it needs the machine to be read again.
public struct PlayerSnapshot: Sendable, Equatable {
    /// What the transport does (an overlay may show otherwise: see ``alarm``).
    public var transport: Transport
    /// The current entry and what is known about it.
    public var current: TrackItem?
    /// The volume as clients should read it: 0 while muted in the mixer (what the user hears).
    public var volume: Double
    /// The playback rate.
    public var rate: Double
    /// The repeat mode.
    public var repeatMode: RepeatMode
    /// Whether the queue plays shuffled.
    public var shuffled: Bool
    /// Whether Next would move.
    public var canGoNext: Bool
    /// Whether Previous would move.
    public var canGoPrevious: Bool
    /// The playlist that filled the queue, if one did.
    public var activePlaylist: PlaylistReference?
    /// A ringing alarm shown instead of the track.
    public var alarm: AlarmDisplay?
    /// The Pomodoro's phase shown as the track's title.
    public var pomodoro: PomodoroDisplay?

    /// Whether an overlay owns the transport: Play, Pause and Next must reach the player even
    /// when the queue alone would not allow them.
    public var overlayOwnsTransport: Bool { alarm != nil || pomodoro != nil }
}

/// A ringing alarm as MPRIS shows it: as the current track.
public struct AlarmDisplay: Sendable, Hashable {
    /// The alarm's id.
    public var id: UInt32
    /// Its label, shown as the title.
    public var label: String
    /// The sound it plays.
    public var soundURI: String

    /// An alarm display.
    public init(id: UInt32, label: String, soundURI: String) {
        self.id = id
        self.label = label
        self.soundURI = soundURI
    }
}

/// The Pomodoro as MPRIS shows it: its phase and time left as the title.
public struct PomodoroDisplay: Sendable, Hashable {
    /// "Focus 1 of 4 — 24 min left" and the like.
    public var title: String

    /// A Pomodoro display.
    public init(title: String) {
        self.title = title
    }
}
