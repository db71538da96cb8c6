public import DBus
import FoundationEssentials
import Glibc
import Synchronization

/// Serves `org.mpris.MediaPlayer2` and `.Player` (and, when handlers are given, `.TrackList`
/// and `.Playlists`) on `/org/mpris/MediaPlayer2`, to the letter of MPRIS 2.2.
///
/// The app publishes what it plays by mutating ``MPRISState`` in ``update(_:)``; the server
/// compares before and after and sends one PropertiesChanged per interface containing exactly
/// the values that changed. Commands from the bus reach the handlers after the spec's rules
/// have been applied.
public final class MPRISServer: Sendable {
    /// The connection the player is served on.
    public let connection: DBusConnection
    let rootHandler: any MPRISRootHandler
    let playerHandler: any MPRISPlayerHandler
    let trackListHandler: (any MPRISTrackListHandler)?
    let playlistsHandler: (any MPRISPlaylistsHandler)?
    let state: Mutex<MPRISState>
    private let ownedName = Mutex<BusName?>(nil)
    private let metadataCache = MetadataValueCache()
    let trackSetCache = TrackSetCache()

    /// Prepares a server with the initial `state`; nothing is on the bus until ``start(name:)``.
    public init(
        connection: DBusConnection, state initial: MPRISState, root: any MPRISRootHandler,
        player: any MPRISPlayerHandler, trackList: (any MPRISTrackListHandler)? = nil,
        playlists: (any MPRISPlaylistsHandler)? = nil
    ) {
        var initial = initial
        initial.root.hasTrackList = trackList != nil
        self.connection = connection
        rootHandler = root
        playerHandler = player
        trackListHandler = trackList
        playlistsHandler = playlists
        state = Mutex(initial)
    }

    /// The bus name owned, once started.
    public var busName: BusName? { ownedName.withLock { $0 } }

    /// Exports every interface with its current values, then asks for
    /// `org.mpris.MediaPlayer2.<name>` — in that order, because panels query the moment the
    /// name appears. If the name is taken, a unique `.instance<pid>` suffix is used, as the
    /// spec allows. Returns the name owned.
    @discardableResult
    public func start(name: String) throws(DBusError) -> BusName {
        var interfaces = [makeRootInterface(), makePlayerInterface()]
        if trackListHandler != nil { interfaces.append(makeTrackListInterface()) }
        if playlistsHandler != nil { interfaces.append(makePlaylistsInterface()) }
        try connection.export(interfaces, at: MPRISNames.objectPath)
        for candidate in Self.candidateNames(for: name) {
            guard let busName = BusName(rawValue: candidate) else {
                throw DBusError(.invalidArgs, "\"\(name)\" does not make a valid bus name")
            }
            switch try connection.requestName(busName, flags: .doNotQueue) {
            case .primaryOwner, .alreadyOwner:
                ownedName.withLock { $0 = busName }
                return busName
            case .exists, .inQueue:
                continue
            }
        }
        throw DBusError(.failed, "every candidate name for \(name) is taken")
    }

    /// Releases the bus name and stops serving the object.
    public func stop() {
        if let name = ownedName.withLock({ $0 }) { _ = try? connection.releaseName(name) }
        ownedName.withLock { $0 = nil }
        connection.unexport(MPRISNames.objectPath)
    }

    /// `org.mpris.MediaPlayer2.<name>`, then the same with `.instance<pid>` and further
    /// numbered variants; the suffix uses letters and digits only and starts with a letter.
    static func candidateNames(for name: String) -> [String] {
        let base = MPRISNames.busNamePrefix + name
        // getpid, not ProcessInfo: the first `ProcessInfo.processInfo` sets up the whole object
        // (~60 us in a profile), and this runs before the bus name.
        let pid = getpid()
        return [base, "\(base).instance\(pid)"] + (1...8).map { "\(base).instance\(pid)_\($0)" }
    }

    /// The current published state.
    public var currentState: MPRISState { state.withLock { $0 } }

    /// Applies `change` to the state and announces what changed: one PropertiesChanged per
    /// interface, only for values that differ, none at all when nothing does. `Position` and
    /// `CanControl` are never signalled. Safe from any thread.
    public func update(_ change: (inout MPRISState) -> Void) {
        state.withLock { state in
            let old = apply(change, to: &state)
            // O(1) unless the list changed: the two share one buffer otherwise.
            if old.trackList.tracks != state.trackList.tracks { trackSetCache.invalidate() }
            emitChanges(from: old, to: state)
        }
    }

    /// Applies `change` with the state lock held, keeping what apps may not change
    /// (HasTrackList follows the handlers, CanControl is constant), and returns the state before.
    func apply(_ change: (inout MPRISState) -> Void, to state: inout MPRISState) -> MPRISState {
        let old = state
        state.player.freezePosition()
        change(&state)
        state.root.hasTrackList = old.root.hasTrackList
        state.player.canControl = old.player.canControl
        return old
    }

    /// Announces a discontinuity in the position (`Seeked`): a seek, a loop restart, a track
    /// starting part-way. Sets the position to `position` and emits `Seeked(position)`.
    public func seeked(to position: Microseconds) {
        state.withLock { state in
            state.player.position = position
            try? connection.emitSignal("Seeked", interface: MPRISNames.player, path: MPRISNames.objectPath,
                                       arguments: [.int64(position)])
        }
    }

    /// Sends PropertiesChanged for every served interface whose values differ. Called with the
    /// state lock held, so signals leave in the order the changes were made. `tracksEdited`:
    /// the track list was edited in place, so `old` cannot tell, and `Tracks` is invalidated.
    func emitChanges(from old: MPRISState, to new: MPRISState, tracksEdited: Bool = false) {
        // An interface whose state is unchanged is skipped without building any D-Bus value:
        // publishing a PlayPause was otherwise dominated by rebuilding every property twice.
        var tables: [(InterfaceName, [PropertySpec])] = []
        if old.root != new.root { tables.append((MPRISNames.root, PropertyTable.root)) }
        if old.player != new.player { tables.append((MPRISNames.player, PropertyTable.player)) }
        if trackListHandler != nil, tracksEdited || old.trackList != new.trackList {
            tables.append((MPRISNames.trackList, PropertyTable.trackList))
        }
        if playlistsHandler != nil, old.playlists != new.playlists {
            tables.append((MPRISNames.playlists, PropertyTable.playlists))
        }
        for (interface, table) in tables {
            let edited: Set<MemberName> = tracksEdited && interface == MPRISNames.trackList ? ["Tracks"] : []
            let changes = PropertyChanges(table: table, old: old, new: new, edited: edited)
            guard !changes.isEmpty else { continue }
            try? connection.emitPropertiesChanged(
                interface: interface, path: MPRISNames.objectPath,
                changed: changes.changed, invalidated: changes.invalidated)
        }
    }

    /// The position as the player reports it, or extrapolated from the last published one.
    func livePosition() -> Microseconds {
        if let position = playerHandler.currentPosition() { return position }
        return state.withLock { $0.player.position }
    }

    /// Declares the properties of `table` as D-Bus properties reading the live state. The
    /// setters are pairs, not a Dictionary: one keyed by MemberName had the runtime look up its
    /// Hashable conformance, a scan of every conformance in the process, before the bus name.
    func declare(_ table: [PropertySpec], setters: KeyValuePairs<MemberName, @Sendable (DBusValue) throws -> Void> = [:]) -> [DBusProperty] {
        table.map { spec in
            let (read, write) = (spec.read, spec.write)
            let getter: @Sendable () throws -> DBusValue
            let writer: @Sendable (inout DBusMessageWriter) -> Void
            if spec.name == "Position" {
                getter = { [weak self] in .int64(self?.livePosition() ?? 0) }
                writer = { [weak self] in $0.append(self?.livePosition() ?? 0) }
            } else if spec.name == "Metadata" {
                getter = { [weak self] in
                    guard let self else { throw DBusError(.unknownObject, "the player is gone") }
                    return metadataCache.value(for: state.withLock { $0.player.metadata })
                }
                // Written in place under the lock: a copy of Metadata cost a retain and a release
                // of each of its fields on every GetAll. The lock is held while libdbus copies
                // the strings, a few microseconds; nothing in the writing takes it again.
                writer = { [weak self] writer in
                    guard let self else { return writer.fail(DBusError(.unknownObject, "the player is gone")) }
                    state.withLock { $0.player.metadata.write(to: &writer) }
                }
            } else {
                getter = { [weak self] in
                    guard let self else { throw DBusError(.unknownObject, "the player is gone") }
                    return self.state.withLock { read($0) }
                }
                writer = { [weak self] writer in
                    guard let self else { return writer.fail(DBusError(.unknownObject, "the player is gone")) }
                    state.withLock { write($0, &writer) }
                }
            }
            return DBusProperty(
                spec.name, type: spec.type, access: spec.access, emitsChangedSignal: spec.emits,
                annotations: spec.annotations, get: getter, set: setters.first(where: { $0.key == spec.name })?.value, write: writer)
        }
    }
}
