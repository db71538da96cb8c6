public import DBus
import Foundation
import Logging
public import MPRIS
public import Playback
import Synchronization

/// The player: owns the queue, drives the engine, and publishes everything on MPRIS.
///
/// Commands arrive from the bus (on the loop thread) and engine events from its stream; both
/// take the one state lock, decide with the queue's value logic, then issue engine commands
/// (which return at once) and publish the new state. A command's effect is therefore visible on
/// the bus before its D-Bus reply goes out.
public final class PlayerController: Sendable {
    struct State {
        var queue = PlayQueue()
        var info: [UInt64: TrackInfo] = [:]
        /// What the user asked for; the engine's reports confirm it.
        var intent: PlaybackStatus = .stopped
        var loadedEntryID: UInt64?
        /// The entry handed to the engine for a gapless switch.
        var queuedNextID: UInt64?
        /// The engine announced a gapless switch: the next trackStarted is the queued entry.
        var switchPending = false
        /// The level to play at, saved with the session; kept while muted.
        var volume = 1.0
        /// The user muted linnet's stream in the sound server's mixer. MPRIS has no mute, so
        /// Volume reads 0 meanwhile: what clients show is what the user hears.
        var muted = false
        var rate = 1.0
        /// Where to seek once the loaded entry is ready (resuming a saved session).
        var pendingSeek: Int64?
        /// A seek the engine has not confirmed yet: until it does, its position queries still
        /// answer from before the seek, so the target is the truthful position.
        var seekInFlight: Int64?
        /// The engine's last position answer and the entry it was for: while the engine cannot
        /// answer (prerolling, which can take seconds on a slow stream or a loaded machine) it is
        /// not moving, so this, not the published position running on with the clock, is where
        /// playback is.
        var lastEnginePosition: (entry: UInt64, microseconds: Int64)?
        /// Paused because the sound server asked (a call started); resume when it ends.
        var pausedBySoundServer = false
        var activePlaylist: Playlist?
    }

    let state = Mutex(State())
    let engine: any PlaybackEngine
    let scanner: MetadataScanner
    let connection: DBusConnection
    let configuration: PlayerConfiguration
    let logger: Logger
    let playlistLibrary: PlaylistLibrary
    private let serverSlot = Mutex<MPRISServer?>(nil)
    private let quitHandler = Mutex<(@Sendable () -> Void)?>(nil)
    let saver: SessionSaver
    /// The clock features' overlay and command take-over (PlayerController+Takeover).
    let takeover = Takeover()
    /// Other players, staying awake and notifications, shared with the clock features.
    let desktop: DesktopServices
    let desktopLink = Mutex(DesktopLinkState())

    /// The MPRIS server publishing this player.
    public var server: MPRISServer { serverSlot.withLock { $0! } }

    /// Creates a player on `connection` playing through `engine`, using `desktop` for audio
    /// focus, suspend inhibition and notifications.
    public init(
        connection: DBusConnection, engine: any PlaybackEngine, configuration: PlayerConfiguration,
        desktop: DesktopServices = .inert
    ) {
        self.connection = connection
        self.desktop = desktop
        self.engine = engine
        self.configuration = configuration
        scanner = MetadataScanner(maxConcurrentScans: 2)
        logger = Logger(label: "linnet.player")
        playlistLibrary = PlaylistLibrary(directories: configuration.playlistDirectories)
        saver = SessionSaver(store: StateStore<SavedSession>(fileURL: configuration.sessionFile), logger: logger)
        let server = MPRISServer(
            connection: connection, state: Self.initialMPRISState(configuration), root: self, player: self,
            trackList: self, playlists: self)
        serverSlot.withLock { $0 = server }
    }

    /// Called when a client asks the player to quit (`Quit`).
    public func onQuit(_ handler: @escaping @Sendable () -> Void) {
        quitHandler.withLock { $0 = handler }
    }

    func requestQuit() {
        quitHandler.withLock { $0 }?()
    }

    private static func initialMPRISState(_ configuration: PlayerConfiguration) -> MPRISState {
        var state = MPRISState(identity: "Linnet", desktopEntry: "linnet")
        state.root.canQuit = true
        state.root.canRaise = false
        state.root.supportedURISchemes = SupportedMedia.uriSchemes
        state.root.supportedMIMETypes = SupportedMedia.mimeTypes
        state.player.minimumRate = 0.25
        state.player.maximumRate = 4
        state.trackList.canEditTracks = true
        state.playlists.orderings = [.alphabetical, .modifiedDate]
        return state
    }

    /// Loads `session` (or the fresh `items`), exports everything, takes the bus name and starts
    /// consuming engine events. Returns the bus name owned.
    @discardableResult
    public func start(session: SavedSession?, items: [PlayableItem], autoplay: Bool) throws(DBusError) -> BusName {
        state.withLock { state in
            if let session, items.isEmpty {
                state.queue = session.queue
                state.volume = session.volume
                state.rate = session.rate
                state.pendingSeek = session.positionMicroseconds > 0 ? session.positionMicroseconds : nil
            } else {
                state.queue.replaceAll(with: items.map(\.uri))
                for (entry, item) in zip(state.queue.entries, items) {
                    state.info[entry.id] = TrackInfo(item: item)
                }
            }
            if let repeatMode = configuration.repeatMode { state.queue.repeatMode = repeatMode }
            if let shuffle = configuration.shuffle, shuffle != state.queue.isShuffled { state.queue.setShuffle(shuffle) }
            if let volume = configuration.volume { state.volume = max(0, volume) }
        }
        consumeEngineEvents()
        connectDesktop()
        let (volume, rate) = state.withLock { ($0.volume, $0.rate) }
        engine.setVolume(volume)
        engine.setRate(rate)
        refreshPlaylists()
        state.withLock { state in
            loadCurrent(&state, intent: autoplay ? .playing : .paused)
            publish(state, replacingTrackList: true)
        }
        scanQueue()
        let name = try server.start(name: configuration.busName)
        logger.info("on the bus as \(name)")
        return name
    }

    /// Saves the session, leaves the bus and stops the engine.
    public func shutdown() {
        saver.saveNow(snapshot())
        disconnectDesktop()
        server.stop()
        engine.shutdown()
        scanner.shutdown()
    }

    /// The session as it would be saved now.
    func snapshot() -> SavedSession {
        // Mid-seek the engine cannot say where it is; the published position (anchored at the
        // seek target and advancing with the clock) is then the best answer.
        let position = currentPosition() ?? server.currentState.player.position
        return state.withLock { state in
            SavedSession(queue: state.queue, positionMicroseconds: position, volume: state.volume, rate: state.rate)
        }
    }

    /// A copy of the queue, for tests and diagnostics.
    public var queue: PlayQueue { state.withLock { $0.queue } }
}
