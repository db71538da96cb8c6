/// The player's rules as a value: transport, queue, engine hand-offs, interruptions and the clock
/// features' overlays. ``handle(_:)`` takes one input and returns the effects to carry out, in
/// order; it reads no clock, takes no lock and talks to nothing, so every rule is testable as
/// value in, effects out.
///
/// Invariants:
/// - `loadedEntryID` is the entry the engine was last told to load, or nil when it was stopped
///   with nothing current; `queuedNextID` is the entry handed over for a gapless switch.
/// - Every state change a client can see ends in a ``PlayerEffect/publish(_:position:trackList:)``.
/// - The clock features' overlays decide where the user's transport commands go; the clock's own
///   music requests (``ClockInput``) are never routed back to the clock.
public struct PlayerMachine: Sendable {
    /// What the machine is told once, at creation.
    public struct Settings: Sendable, Equatable {
        /// Pause when the output the listener relied on goes away (else play on).
        public var pausesWhenRouteLost = true
        /// Announce each track in a notification.
        public var announcesTracks = false
        /// The longest queue clients may build one track at a time.
        public var maximumQueueLength = 10_000

        /// Default settings.
        public init() {}
    }

    /// Where the engine last said it was, and in which entry.
    struct EnginePosition: Sendable, Equatable {
        var entryID: UInt64
        var position: Duration
    }

    /// The settings.
    public let settings: Settings
    /// The queue.
    public internal(set) var queue = PlayQueue()
    /// What is known about each queued entry, by entry id.
    public internal(set) var tracks = EntryIDMap<TrackFacts>()
    /// What the user asked for.
    public internal(set) var transport: Transport = .stopped
    /// The volume setting, saved with the session; kept while muted.
    public internal(set) var volume = 1.0
    /// The playback rate.
    public internal(set) var rate = 1.0
    /// The playlist that filled the queue.
    public internal(set) var activePlaylist: PlaylistReference?

    var loadedEntryID: UInt64?
    var queuedNextID: UInt64?
    /// The engine announced a gapless switch: the next trackStarted is the queued entry.
    var switchPending = false
    /// Muted in the sound server's mixer. MPRIS has no mute, so Volume reads 0 meanwhile.
    var muted = false
    /// The sleep-timer fade, applied to the engine's level only.
    var fadeLevel = 1.0
    /// Where to seek once the loaded entry is ready (resuming a saved session, or a seek while
    /// stopped).
    var pendingSeek: Duration?
    /// A seek the engine has not confirmed: its position answers still predate it.
    var seekInFlight: Duration?
    /// While the engine cannot answer (prerolling) it is not moving: this is where it is.
    var lastEnginePosition: EnginePosition?
    /// Paused because the sound server asked (a call); resumes when it ends.
    var pausedBySoundServer = false
    /// Paused because another player took focus; resumes when it stops.
    var pausedForFocus = false
    /// The ringing alarm, shown instead of the track.
    var alarm: AlarmDisplay?
    /// The running Pomodoro's display.
    var pomodoro: PomodoroDisplay?
    /// The alarm paused the music (or a focus block began while it rang): play when it ends.
    var musicAwaitsAlarmEnd = false
    /// Focus and the inhibitor are held: while playing, and through a call.
    var holdsPlayback = false
    /// Entries whose tags were asked for ahead of the queue's scan (see `readAhead`).
    var readAheadIDs: Set<UInt64> = []
    /// The engine's length of a local file it plays before the file's scan answered.
    var engineLengthBeforeScan: (entryID: UInt64, length: Duration)?
    /// The last track announced, so each is announced once.
    var announced: TrackAnnouncement?
    /// Shut down: nothing may take focus or announce again.
    var isShutDown = false

    /// The effects of the input being handled.
    var output: [PlayerEffect] = []

    /// A stopped player with an empty queue.
    public init(settings: Settings = Settings(), queueSeed: UInt64 = .random(in: .min ... .max)) {
        self.settings = settings
        queue = PlayQueue(seed: queueSeed)
    }

    /// Applies `input` and returns what to do, in order.
    public mutating func handle(_ input: PlayerInput) -> [PlayerEffect] {
        defer { output = [] }
        switch input {
        case .start(let startup): start(startup)
        case .command(let command): route(command)
        case .engine(let report): engineReported(report)
        case .scanned(let id, let outcome): scanned(id, outcome)
        case .focus(let request): focusRequested(request)
        case .clock(let input): clock(input)
        case .shutdown: shutDown()
        }
        return output
    }

    mutating func emit(_ effect: PlayerEffect) {
        output.append(effect)
    }

    /// The entry the engine has loaded, if it is still queued.
    var loadedEntry: QueueEntry? {
        loadedEntryID.flatMap { queue.entry(id: $0) }
    }

    /// What is known about `entry`, with it.
    func item(_ entry: QueueEntry) -> TrackItem {
        TrackItem(entry: entry, facts: tracks[entry.id] ?? TrackFacts())
    }

    /// The level the engine should play at.
    var engineLevel: Double { volume * fadeLevel }

    private mutating func start(_ startup: PlayerStartup) {
        if let session = startup.session, startup.tracks.isEmpty {
            queue = session.queue
            volume = session.volume
            rate = session.rate
            pendingSeek = session.position > .zero ? session.position : nil
        } else {
            let entries = queue.replaceAll(with: startup.tracks.map(\.uri))
            tracks.reserveCapacity(entries.count)
            for (entry, track) in zip(entries, startup.tracks) { tracks[entry.id] = track.facts }
        }
        if let repeatMode = startup.repeatMode { queue.repeatMode = repeatMode }
        if let shuffle = startup.shuffle, shuffle != queue.isShuffled { queue.setShuffle(shuffle) }
        if let volume = startup.volume { self.volume = max(0, volume) }
        scanUnread(queue.entries)
        emit(.engine(.setVolume(engineLevel)))
        emit(.engine(.setRate(rate)))
        loadCurrent(startup.autoplay ? .playing : .paused)
        publish(trackList: queue.entries.map(\.id))
    }

    private mutating func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        if holdsPlayback {
            holdsPlayback = false
            emit(.holdPlayback(false))
        }
        if settings.announcesTracks { emit(.withdrawAnnouncement) }
    }
}
