public import DBus
import FoundationEssentials
import Synchronization

/// A "now playing" presence on the Linux desktop in a few lines, for apps that do not want to
/// think in D-Bus: set ``nowPlaying`` and ``playbackState``, add handlers to ``commands``, and
/// GNOME, KDE, media keys and `playerctl` see and drive the app through MPRIS.
///
/// ```swift
/// let session = try NowPlayingSession(name: "myapp", identity: "My App")
/// session.commands.togglePlayPause.addHandler { player.toggle() }
/// session.nowPlaying = NowPlayingInfo(title: "Song", artists: ["Artist"], duration: .seconds(200))
/// session.playbackState = .playing
/// try session.start()
/// ```
public final class NowPlayingSession: Sendable {
    /// The commands the desktop may send; enabling one sets the matching `Can*` property.
    public let commands: RemoteCommandCenter
    /// The MPRIS server underneath, for anything the facade does not cover.
    public let server: MPRISServer
    private let trackCounter = Atomic<Int>(0)
    private let current = Mutex<(info: NowPlayingInfo?, trackID: TrackID?)>((nil, nil))

    /// Prepares a session for bus name `org.mpris.MediaPlayer2.<name>` on `connection` (the
    /// session bus when nil). Call ``start()`` to appear on the bus.
    public init(
        name: String, identity: String, desktopEntry: String? = nil,
        supportedRates: ClosedRange<Double> = 1...1, connection: DBusConnection? = nil
    ) throws(DBusError) {
        let connection = if let connection { connection } else { try DBusConnection(bus: .session) }
        commands = RemoteCommandCenter(supportedRates: supportedRates)
        var state = MPRISState(identity: identity, desktopEntry: desktopEntry)
        state.player.minimumRate = supportedRates.lowerBound
        state.player.maximumRate = supportedRates.upperBound
        state.root.canQuit = false
        let adapter = CommandAdapter(commands: commands)
        server = MPRISServer(connection: connection, state: state, root: adapter, player: adapter)
        self.name = name
        commands.onAnyChange { [weak self] in self?.publishCapabilities() }
    }

    private let name: String

    /// Appears on the bus; returns the bus name owned.
    @discardableResult
    public func start() throws(DBusError) -> BusName {
        publishCapabilities()
        return try server.start(name: name)
    }

    /// Leaves the bus.
    public func stop() { server.stop() }

    /// Whether the app is playing, paused or stopped (`PlaybackStatus`).
    public var playbackState: PlaybackStatus {
        get { server.currentState.player.playbackStatus }
        set { server.update { $0.player.playbackStatus = newValue } }
    }

    /// The item now playing, or nil for nothing (`Metadata`, `Position`, `Rate`). Setting the
    /// same item with an elapsed time that disagrees with the running clock announces a seek.
    public var nowPlaying: NowPlayingInfo? {
        get { current.withLock { $0.info } }
        set { publish(newValue) }
    }

    private func publish(_ info: NowPlayingInfo?) {
        let (previous, previousID) = current.withLock { ($0.info, $0.trackID) }
        let sameItem = info != nil && previous != nil
            && (info?.identifier != nil ? info?.identifier == previous?.identifier : info?.title == previous?.title)
        let trackID: TrackID? = if info == nil { nil } else if sameItem { previousID } else { nextTrackID() }
        current.withLock { $0 = (info, trackID) }
        let elapsed = info?.elapsedTime.microseconds ?? 0
        let expected = server.currentState.player.position
        server.update { state in
            state.player.metadata = info.map { Self.metadata(for: $0, id: trackID) } ?? .empty
            if let rate = info?.rate, rate > 0 { state.player.rate = rate }
            state.player.position = elapsed
        }
        // A jump within the same item, or an item starting part-way, is a discontinuity.
        let jumped = sameItem ? abs(elapsed - expected) > 250_000 : elapsed > 250_000
        if jumped { server.seeked(to: elapsed) }
        publishCapabilities()
    }

    /// The app's volume (`Volume`), linear, 0 and above.
    public var volume: Double {
        get { server.currentState.player.volume }
        set { server.update { $0.player.volume = max(0, newValue) } }
    }

    /// The app's repeat mode (`LoopStatus`).
    public var repeatMode: LoopStatus {
        get { server.currentState.player.loopStatus }
        set { server.update { $0.player.loopStatus = newValue } }
    }

    /// Whether the app shuffles (`Shuffle`).
    public var isShuffled: Bool {
        get { server.currentState.player.shuffle }
        set { server.update { $0.player.shuffle = newValue } }
    }

    private func nextTrackID() -> TrackID {
        let number = trackCounter.add(1, ordering: .relaxed).newValue
        return TrackID("/nowplaying/track\(number)")!
    }

    private static func metadata(for info: NowPlayingInfo, id: TrackID?) -> Metadata {
        var metadata = Metadata(trackID: id, title: info.title, artists: info.artists, album: info.album,
                                length: info.duration?.microseconds)
        metadata.lyrics = info.lyrics
        metadata.artURL = info.artworkFile.map { URL(fileURLWithPath: $0).absoluteString }
        return metadata
    }

    private func publishCapabilities() {
        let hasItem = nowPlaying != nil
        server.update { state in
            state.player.canPlay = commands.play.isEnabled || commands.togglePlayPause.isEnabled
            state.player.canPause = commands.pause.isEnabled || commands.togglePlayPause.isEnabled
            state.player.canGoNext = commands.nextTrack.isEnabled
            state.player.canGoPrevious = commands.previousTrack.isEnabled
            state.player.canSeek = commands.changePlaybackPosition.isEnabled && hasItem
        }
    }
}

/// Routes MPRIS commands to the remote command center.
private struct CommandAdapter: MPRISRootHandler, MPRISPlayerHandler {
    let commands: RemoteCommandCenter

    func quit() {}
    func play() { if !commands.play.send(()) { commands.togglePlayPause.send(()) } }
    func pause() { if !commands.pause.send(()) { commands.togglePlayPause.send(()) } }
    func playPause() {
        guard !commands.togglePlayPause.send(()) else { return }
        // Without a toggle handler, PlayPause means "the other one" of play and pause.
        if !commands.pause.send(()) { commands.play.send(()) }
    }
    func stop() { commands.stop.send(()) }
    func next() { commands.nextTrack.send(()) }
    func previous() { commands.previousTrack.send(()) }
    func seek(to position: Microseconds) { commands.changePlaybackPosition.send(.microseconds(position)) }
    func openURI(_ uri: String) throws {
        guard commands.openURI.send(uri) else { throw DBusError(.notSupported, "this app does not open URIs") }
    }
    func setLoopStatus(_ status: LoopStatus) { commands.changeRepeatMode.send(status) }
    func setShuffle(_ shuffle: Bool) { commands.changeShuffleMode.send(shuffle) }
    func setRate(_ rate: Double) { commands.changePlaybackRate.send(rate) }
    func setVolume(_ volume: Double) { commands.changeVolume.send(volume) }
}
