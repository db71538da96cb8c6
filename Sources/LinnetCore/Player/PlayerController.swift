public import DesktopClients
import ClockRules
public import DBus
public import EventLoop
import FoundationEssentials
import Logging
public import MPRIS
public import Playback
public import PlayerCore
import Timekeeping
import Synchronization

/// The player's one owner: it feeds every input to the ``PlayerMachine`` in arrival order and
/// carries out the effects, on the shared loop thread.
///
/// The loop thread is the serial owner because D-Bus dispatch already runs there: a bus command
/// is handled, its effects published, and only then is its reply sent, so a client sees the
/// effect of its call before the reply. Inputs from other threads (engine events, tag scans,
/// focus requests) hop onto the loop. Effects that feed an input back (the clock answering an
/// alarm's Stop) queue it behind the current one instead of recursing.
public final class PlayerController: Sendable {
    let owner: LoopBound<PlayerOwner>
    let engine: any PlaybackEngine
    /// Watches the folders of queued local files, so edits there reach the cache and the queue.
    let folderWatcher = FolderWatcher()
    /// Keeps a first scan's read that lands after the watcher's re-read of a changed file from
    /// replacing it.
    let tagReadOrder = TagReadOrder()
    /// Made on first use: making one initialises GStreamer, which must not delay the bus name.
    private let scannerSlot = Mutex<MetadataScanner?>(nil)
    /// Set once the machine has been given what to play (``begin(session:items:autoplay:)``):
    /// until then there is nothing of the user's to save, and a save would overwrite theirs.
    private let begun = Atomic<Bool>(false)
    private let attached = Atomic<Bool>(false)
    private let readingEngineEvents = Atomic<Bool>(false)
    /// Set by ``shutdown()``: a start that arrives later (a folder resolved during a quit) is
    /// dropped.
    private let ended = Atomic<Bool>(false)
    let configuration: PlayerConfiguration
    let playlistLibrary: PlaylistLibrary
    let logger: Logger
    /// The MPRIS server publishing this player.
    public let server: MPRISServer

    /// Creates a player on `connection` playing through `engine`, using `desktop` for audio
    /// focus, suspend inhibition and notifications.
    public init(
        connection: DBusConnection, engine: any PlaybackEngine, configuration: PlayerConfiguration,
        desktop: DesktopServices = .inert, loop: EventLoop = .shared
    ) {
        self.engine = engine
        self.configuration = configuration
        logger = Logger(label: "linnet.player")
        playlistLibrary = PlaylistLibrary(directories: configuration.playlistDirectories)
        var settings = PlayerMachine.Settings()
        settings.announcesTracks = configuration.desktop.notifyTrackChanges
        settings.pausesWhenRouteLost = configuration.desktop.onRouteLost == .pause
        settings.maximumQueueLength = MediaAdmission.maximumQueueLength
        let bridge = MPRISBridge()
        server = MPRISServer(
            connection: connection, state: Self.initialMPRISState(configuration), root: bridge, player: bridge,
            trackList: bridge, playlists: bridge)
        owner = LoopBound(
            PlayerOwner(
                machine: PlayerMachine(settings: settings), engine: engine, desktop: desktop, logger: logger,
                saver: SessionSaver(store: StateStore<SavedSession>(fileURL: configuration.sessionFile), logger: logger)),
            loop: loop)
        bridge.player = self
        watchLibraryChanges()
    }

    private static func initialMPRISState(_ configuration: PlayerConfiguration) -> MPRISState {
        var state = MPRISState(identity: "Linnet", desktopEntry: DesktopApplication.busName.rawValue)
        state.root.canQuit = true
        state.root.canRaise = false
        // Until the machine starts (linnet is on the bus before it knows what to play), Play
        // and PlayPause are accepted and held for the queue that follows: the call that
        // D-Bus-activated linnet, or a media key, must not be dropped for CanPlay false.
        state.player.canPlay = true
        state.player.canPause = true
        state.player.minimumRate = 0.25
        state.player.maximumRate = 4
        state.trackList.canEditTracks = true
        state.playlists.orderings = [.alphabetical, .modifiedDate]
        return state
    }

    /// The tag scanner, made on first use (it initialises GStreamer).
    public var scanner: MetadataScanner {
        scannerSlot.withLock { slot in
            if let made = slot { return made }
            let made = MetadataScanner(maxConcurrentScans: 2, cache: configuration.scanCache, source: configuration.tagSource)
            slot = made
            return made
        }
    }

    /// Loads `session` (or the fresh `items`), exports everything, takes the bus name and starts
    /// consuming engine events. Returns the bus name owned.
    @discardableResult
    public func start(session: SavedSession?, items: [PlayableItem], autoplay: Bool) throws(DBusError) -> BusName {
        begin(session: session, items: items, autoplay: autoplay)
        return try appear()
    }

    /// Takes the bus name with what is published so far (at first an empty, stopped player:
    /// valid MPRIS state) and starts consuming engine events. Nothing here touches GStreamer,
    /// the music folder or any tags, so linnet is on the bus within milliseconds of its launch;
    /// ``begin(session:items:autoplay:)`` fills the player in.
    public func appear() throws(DBusError) -> BusName {
        attachOnce()
        let name = try server.start(name: configuration.busName)
        readEngineEventsOnce()
        logger.info("on the bus as \(name)")
        return name
    }

    /// Gives the machine what to play (a saved session or fresh items) with the command line's
    /// settings, and publishes what GStreamer can play and the playlists found. Before or after
    /// ``appear()``; clients see the queue, Metadata and status change together.
    public func begin(session: SavedSession?, items: [PlayableItem], autoplay: Bool) {
        let startup = PlayerStartup(
            session: session, tracks: items.map(NewTrack.init), autoplay: autoplay, repeatMode: configuration.repeatMode,
            shuffle: configuration.shuffle, volume: configuration.volume)
        // Initialises GStreamer (its registry): ~10 ms, so after the name when called after it.
        let schemes = SupportedMedia.uriSchemes
        let types = SupportedMedia.mimeTypes
        attachOnce()
        readEngineEventsOnce()
        owner.loop.sync {
            guard !ended.load(ordering: .relaxed) else { return }
            server.update {
                $0.root.supportedURISchemes = schemes
                $0.root.supportedMIMETypes = types
            }
            refreshPlaylists()
            begun.store(true, ordering: .relaxed)
            owner.value.send(.start(startup))
        }
        watchFolders(of: items.map(\.uri) + (session?.queue.entries.map(\.uri) ?? []))
    }

    private func attachOnce() {
        guard !attached.exchange(true, ordering: .relaxed) else { return }
        owner.loop.sync {
            owner.value.attach(player: self)
            connectDesktop()
        }
    }

    /// Starts the task that reads the engine's events, once: after the bus name when
    /// ``appear()`` comes first, since the first task starts Swift's thread pool (the daemon
    /// takes its name before the pool runs). Until then the engine is idle, and anything it
    /// reports waits in its stream, in order.
    private func readEngineEventsOnce() {
        guard !readingEngineEvents.exchange(true, ordering: .relaxed) else { return }
        consumeEngineEvents()
    }

    /// Saves the session (once it has begun), gives back what is held, leaves the bus and
    /// stops the engine.
    public func shutdown() {
        owner.loop.sync {
            ended.store(true, ordering: .relaxed)
            owner.value.send(.shutdown)
            if begun.load(ordering: .relaxed) { owner.value.saver.saveNow(owner.value.savedSession()) }
        }
        server.stop()
        engine.shutdown()
        folderWatcher.stop()
        scannerSlot.withLock { $0 }?.shutdown()
    }

    /// Feeds `input` to the machine on the loop thread: at once when called there (a bus
    /// command), otherwise queued behind the loop's work.
    public func send(_ input: PlayerInput) {
        let owner = self.owner
        owner.loop.perform { _ = owner.value.send(input) }
    }

    /// Feeds a user's command and reports a refusal. Called on the loop thread (bus handlers).
    func sendRefusable(_ command: PlayerCommand) throws(PlayerRefusal) {
        if let refusal = owner.loop.sync({ owner.value.send(.command(command)) }) { throw refusal }
    }

    /// Reads the machine on the loop thread.
    func read<T>(_ body: (PlayerMachine) -> T) -> T {
        owner.loop.sync { body(owner.value.machine) }
    }

    /// Lets the clock features answer what the machine asks of them (Stop dismisses an alarm,
    /// PlayPause pauses a Pomodoro).
    public func onClockRequest(_ handler: @escaping @Sendable (ClockRequest) -> Void) {
        owner.loop.sync { owner.value.clockHandler = handler }
    }

    /// Called when a client asks the player to quit (`Quit`).
    public func onQuit(_ handler: @escaping @Sendable () -> Void) {
        owner.loop.sync { owner.value.quitHandler = handler }
    }

    func requestQuit() {
        let handler = owner.loop.sync { owner.value.quitHandler }
        handler?()
    }

    /// A copy of the queue, for tests and diagnostics.
    public var queue: PlayQueue { read(\.queue) }

    /// Where playback is in the loaded track, in microseconds.
    public func currentPosition() -> Microseconds {
        owner.loop.sync { owner.value.currentPosition().inMicroseconds }
    }

    /// Consumes the engine's one event stream for the player's whole life.
    private func consumeEngineEvents() {
        let events = engine.events
        Task.detached { [weak self] in
            for await event in events {
                guard let self else { return }
                self.engineReported(event)
            }
        }
    }

    private func engineReported(_ event: PlaybackEvent) {
        switch event {
        case .warning(let uri, let message):
            logger.warning("\(uri ?? "playback"): \(message)")
        case .outputRouteChanged(let route, let change):
            logRouteChange(to: route, change)
        default:
            break
        }
        if let report = EngineReport(event) { send(.engine(report)) }
    }

    private func logRouteChange(to route: OutputRoute, _ change: RouteChange) {
        switch change {
        case .initial: logger.debug("the audio output is \(route)")
        case .unchanged: break
        case .sinkVanished: logger.info("the audio output went away; the sound server moved it to \(route)")
        case .privateListeningEnded: logger.info("the audio output left the headphones for \(route)")
        case .privateListeningStarted: logger.info("the audio output is now headphones (\(route))")
        case .moved: logger.info("the audio output was moved to \(route)")
        }
    }

    /// Listens for the focus coordinator asking linnet to give way (when it can ask).
    private func connectDesktop() {
        // The daemon's coordinator is found with a class cast: the first cast to an existential
        // scans every protocol conformance in the process, and this runs before the bus name.
        let desktopFocus = owner.value.desktop.focus
        let interrupting: (any AudioFocusInterrupting)? =
            (desktopFocus as? AudioFocusCoordinator) ?? (desktopFocus as? any AudioFocusInterrupting)
        guard let focus = interrupting else { return }
        focus.onInterruption { [weak self] interruption in
            switch interruption {
            case .yield: self?.send(.focus(.yield))
            case .resume: self?.send(.focus(.resume))
            }
        }
    }

    /// Re-reads the playlist folders and publishes how many playlists there are.
    func refreshPlaylists() {
        let count = playlistLibrary.scan().count
        server.update { $0.playlists.playlistCount = UInt32(count) }
    }
}
