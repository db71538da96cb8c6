import DBus

/// One MPRIS property: its declaration as in the spec XML, and how to read it from the state.
/// The same table declares the D-Bus interface and drives change detection, so the two can
/// never disagree.
struct PropertySpec: Sendable {
    let name: MemberName
    let type: DBusType
    let access: DBusProperty.Access
    let emits: EmitsChangedSignal
    let isOptional: Bool
    let read: @Sendable (MPRISState) -> DBusValue
    /// Writes the value straight into a reply (Get, GetAll) without building ``read``'s value.
    let write: @Sendable (MPRISState, inout DBusMessageWriter) -> Void
    /// Compares the typed values directly, for properties whose D-Bus form is costly to build
    /// (Metadata, Tracks): change detection then builds it only when it is sent.
    let same: (@Sendable (MPRISState, MPRISState) -> Bool)?

    /// A property of any type; `write` defaults to writing `read`'s value (validated).
    init(_ name: MemberName, _ type: DBusType, _ access: DBusProperty.Access = .read,
         emits: EmitsChangedSignal = .true, optional: Bool = false,
         same: (@Sendable (MPRISState, MPRISState) -> Bool)? = nil,
         write: (@Sendable (MPRISState, inout DBusMessageWriter) -> Void)? = nil,
         read: @escaping @Sendable (MPRISState) -> DBusValue) {
        self.name = name
        self.type = type
        self.access = access
        self.emits = emits
        self.isOptional = optional
        self.same = same
        self.read = read
        self.write = write ?? { state, writer in writer.append(read(state)) }
    }

    var annotations: [DBusAnnotation] { isOptional ? [MPRISNames.optionalAnnotation] : [] }

    /// A `b` property.
    static func boolean(_ name: MemberName, _ access: DBusProperty.Access = .read, emits: EmitsChangedSignal = .true,
                        optional: Bool = false, _ value: @escaping @Sendable (MPRISState) -> Bool) -> PropertySpec {
        PropertySpec(name, .boolean, access, emits: emits, optional: optional,
                     write: { state, writer in writer.append(value(state)) }) { .boolean(value($0)) }
    }

    /// An `s` property.
    static func string(_ name: MemberName, _ access: DBusProperty.Access = .read, optional: Bool = false,
                       _ value: @escaping @Sendable (MPRISState) -> String) -> PropertySpec {
        PropertySpec(name, .string, access, optional: optional,
                     write: { state, writer in writer.append(value(state)) }) { .string(value($0)) }
    }

    /// A `d` property.
    static func double(_ name: MemberName, _ access: DBusProperty.Access = .read,
                       _ value: @escaping @Sendable (MPRISState) -> Double) -> PropertySpec {
        PropertySpec(name, .double, access, write: { state, writer in writer.append(value(state)) }) { .double(value($0)) }
    }

    /// An `as` property.
    static func strings(_ name: MemberName, _ value: @escaping @Sendable (MPRISState) -> [String]) -> PropertySpec {
        PropertySpec(name, .array(.string), write: { state, writer in writer.append(value(state)) }) { value($0).dbusValue }
    }
}

enum PropertyTable {
    static let root: [PropertySpec] = [
        .boolean("CanQuit") { $0.root.canQuit },
        .boolean("Fullscreen", .readwrite, optional: true) { $0.root.fullscreen },
        .boolean("CanSetFullscreen", optional: true) { $0.root.canSetFullscreen },
        .boolean("CanRaise") { $0.root.canRaise },
        .boolean("HasTrackList") { $0.root.hasTrackList },
        .string("Identity") { $0.root.identity },
        .string("DesktopEntry", optional: true) { $0.root.desktopEntry ?? "" },
        .strings("SupportedUriSchemes") { $0.root.supportedURISchemes },
        .strings("SupportedMimeTypes") { $0.root.supportedMIMETypes },
    ]

    static let player: [PropertySpec] = [
        .string("PlaybackStatus") { $0.player.playbackStatus.rawValue },
        .string("LoopStatus", .readwrite, optional: true) { $0.player.loopStatus.rawValue },
        .double("Rate", .readwrite) { $0.player.rate },
        .boolean("Shuffle", .readwrite, optional: true) { $0.player.shuffle },
        PropertySpec("Metadata", MPRISTypes.metadata, same: { $0.player.metadata == $1.player.metadata },
                     write: { state, writer in state.player.metadata.write(to: &writer) }) { $0.player.metadata.dbusValue },
        .double("Volume", .readwrite) { $0.player.volume },
        PropertySpec("Position", .int64, emits: .false, write: { state, writer in writer.append(state.player.position) }) {
            .int64($0.player.position)
        },
        .double("MinimumRate") { $0.player.minimumRate },
        .double("MaximumRate") { $0.player.maximumRate },
        .boolean("CanGoNext") { $0.player.canGoNext },
        .boolean("CanGoPrevious") { $0.player.canGoPrevious },
        .boolean("CanPlay") { $0.player.canPlay },
        .boolean("CanPause") { $0.player.canPause },
        .boolean("CanSeek") { $0.player.canSeek },
        .boolean("CanControl", emits: .false) { $0.player.canControl },
    ]

    static let trackList: [PropertySpec] = [
        PropertySpec("Tracks", .array(.objectPath), emits: .invalidates,
                     same: { $0.trackList.tracks == $1.trackList.tracks },
                     write: { state, writer in
                         writer.appendArray(of: .objectPath) { array in
                             for track in state.trackList.tracks { track.appendPath(to: &array) }
                         }
                     }) {
            .array(.objectPath, $0.trackList.tracks.map { .objectPath($0.path) })
        },
        .boolean("CanEditTracks") { $0.trackList.canEditTracks },
    ]

    static let playlists: [PropertySpec] = [
        PropertySpec("PlaylistCount", .uint32, write: { state, writer in writer.append(state.playlists.playlistCount) }) {
            .uint32($0.playlists.playlistCount)
        },
        .strings("Orderings") { $0.playlists.orderings.map(\.rawValue) },
        PropertySpec("ActivePlaylist", .structure([.boolean, MPRISTypes.playlist])) {
            Playlist.maybe($0.playlists.activePlaylist)
        },
    ]
}

/// The PropertiesChanged content for one interface between two states.
struct PropertyChanges {
    var changed: [(MemberName, DBusValue)] = []
    var invalidated: [MemberName] = []
    var isEmpty: Bool { changed.isEmpty && invalidated.isEmpty }

    /// Compares every signalled property of `table`; `Position` (false) and `CanControl`
    /// (false) are never included, `invalidates` properties are named without value.
    /// The changes of `table`'s properties from `old` to `new`; those in `edited` are known to
    /// have changed and are not compared (a track list edited in place has no old value).
    init(table: [PropertySpec], old: MPRISState, new: MPRISState, edited: Set<MemberName> = []) {
        for spec in table where spec.emits == .true || spec.emits == .invalidates {
            if let same = spec.same {
                if !edited.contains(spec.name), same(old, new) { continue }
                if spec.emits == .true { changed.append((spec.name, spec.read(new))) } else { invalidated.append(spec.name) }
                continue
            }
            let after = spec.read(new)
            guard spec.read(old) != after else { continue }
            if spec.emits == .true {
                changed.append((spec.name, after))
            } else {
                invalidated.append(spec.name)
            }
        }
    }
}
