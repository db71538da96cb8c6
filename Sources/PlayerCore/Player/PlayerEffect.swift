/// What the owner must do after an input, in order. The machine decides; the owner only acts.
public enum PlayerEffect: Sendable, Equatable {
    /// Command the playback engine.
    case engine(EngineCommand)
    /// Publish the player's state. `trackList` is the whole new track list (entry ids) when the
    /// queue was replaced; single edits arrive as ``tracksAdded(_:after:)`` and ``trackRemoved(_:)``.
    case publish(PlayerSnapshot, position: PositionUpdate, trackList: [UInt64]?)
    /// Entries were inserted after `after` (nil: at the start), in this order; the first is now
    /// at `index` in natural order (so a published list can be edited without searching it).
    case tracksAdded([TrackItem], after: UInt64?, index: Int)
    /// An entry left the queue from `index` in natural order.
    case trackRemoved(UInt64, index: Int)
    /// What is known about an entry changed.
    case trackChanged(TrackItem)
    /// The position jumped (a loop restart, a resume part-way): announce it (MPRIS `Seeked`).
    case seeked(to: Duration)
    /// Read the tags of these entries and report each with ``PlayerInput/scanned(entryID:_:)``.
    case scan([QueueEntry])
    /// Hold (true) or give back (false) audio focus and the "playing" suspend inhibitor.
    case holdPlayback(Bool)
    /// Show the now-playing notification, replacing the last one.
    case announce(TrackAnnouncement)
    /// Remove the now-playing notification.
    case withdrawAnnouncement
    /// Ask the clock features to act (the user answered an alarm or a Pomodoro).
    case clock(ClockRequest)
    /// Save the session soon.
    case saveSoon
    /// Log for the user.
    case log(LogLevel, String)
    /// The request was refused; the owner reports it to whoever asked.
    case refused(PlayerRefusal)
}

/// A command for the playback engine.
public enum EngineCommand: Sendable, Equatable {
    case load(String)
    case setNext(String?)
    case play, pause, stop
    case seek(to: Duration)
    case setRate(Double)
    /// The level the engine plays at (the volume setting times any fade).
    case setVolume(Double)
    case setMuted(Bool)
}

/// What a publication says about the position.
public enum PositionUpdate: Sendable, Equatable {
    /// Unchanged (it runs on with the clock while playing).
    case unchanged
    /// Exactly here.
    case at(Duration)
    /// Wherever the engine is now (a pause): the owner asks it.
    case engineNow
}

/// A queue entry with what is known about it.
public struct TrackItem: Sendable, Equatable {
    /// The entry.
    public var entry: QueueEntry
    /// What is known about it.
    public var facts: TrackFacts

    /// An entry with its facts.
    public init(entry: QueueEntry, facts: TrackFacts) {
        self.entry = entry
        self.facts = facts
    }
}

/// A request from the player to the clock features.
public enum ClockRequest: Sendable, Equatable {
    /// Snooze the ringing alarm (Next).
    case snoozeAlarm
    /// Stop the ringing alarm (Stop, Pause, PlayPause).
    case dismissAlarm
    /// Pause or resume the Pomodoro, timer and music (PlayPause).
    case togglePomodoro
    /// Pause (true) or resume (false) the Pomodoro.
    case setPomodoroPaused(Bool)
}

/// Why the player refused a request.
public enum PlayerRefusal: Error, Sendable, Equatable {
    /// The queue holds ``PlayerMachine/Settings/maximumQueueLength`` entries already.
    case queueFull(limit: Int)
}

/// How much a log line matters.
public enum LogLevel: Sendable, Equatable {
    case debug, info, notice, warning, error
}

/// The parts of a track its notification shows; a change of any of them updates the bubble.
public struct TrackAnnouncement: Sendable, Equatable {
    /// The entry announced.
    public var entryID: UInt64
    /// The title.
    public var title: String
    /// Artists and album.
    public var body: String
    /// A `file://` URI of the cover art.
    public var art: String?
    /// Whether Previous and Next buttons make sense.
    public var canGoBack: Bool
    /// See ``canGoBack``.
    public var canGoOn: Bool

    /// An announcement.
    public init(entryID: UInt64, title: String, body: String, art: String?, canGoBack: Bool, canGoOn: Bool) {
        self.entryID = entryID
        self.title = title
        self.body = body
        self.art = art
        self.canGoBack = canGoBack
        self.canGoOn = canGoOn
    }
}
