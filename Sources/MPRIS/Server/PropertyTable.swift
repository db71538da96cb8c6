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
    /// Compares the typed values directly, for properties whose D-Bus form is costly to build
    /// (Metadata, Tracks): change detection then builds it only when it is sent.
    let same: (@Sendable (MPRISState, MPRISState) -> Bool)?

    init(_ name: MemberName, _ type: DBusType, _ access: DBusProperty.Access = .read,
         emits: EmitsChangedSignal = .true, optional: Bool = false,
         same: (@Sendable (MPRISState, MPRISState) -> Bool)? = nil,
         read: @escaping @Sendable (MPRISState) -> DBusValue) {
        self.name = name
        self.type = type
        self.access = access
        self.emits = emits
        self.isOptional = optional
        self.same = same
        self.read = read
    }

    var annotations: [DBusAnnotation] { isOptional ? [MPRISNames.optionalAnnotation] : [] }
}

enum PropertyTable {
    static let root: [PropertySpec] = [
        PropertySpec("CanQuit", .boolean) { .boolean($0.root.canQuit) },
        PropertySpec("Fullscreen", .boolean, .readwrite, optional: true) { .boolean($0.root.fullscreen) },
        PropertySpec("CanSetFullscreen", .boolean, optional: true) { .boolean($0.root.canSetFullscreen) },
        PropertySpec("CanRaise", .boolean) { .boolean($0.root.canRaise) },
        PropertySpec("HasTrackList", .boolean) { .boolean($0.root.hasTrackList) },
        PropertySpec("Identity", .string) { .string($0.root.identity) },
        PropertySpec("DesktopEntry", .string, optional: true) { .string($0.root.desktopEntry ?? "") },
        PropertySpec("SupportedUriSchemes", .array(.string)) { $0.root.supportedURISchemes.dbusValue },
        PropertySpec("SupportedMimeTypes", .array(.string)) { $0.root.supportedMIMETypes.dbusValue },
    ]

    static let player: [PropertySpec] = [
        PropertySpec("PlaybackStatus", .string) { .string($0.player.playbackStatus.rawValue) },
        PropertySpec("LoopStatus", .string, .readwrite, optional: true) { .string($0.player.loopStatus.rawValue) },
        PropertySpec("Rate", .double, .readwrite) { .double($0.player.rate) },
        PropertySpec("Shuffle", .boolean, .readwrite, optional: true) { .boolean($0.player.shuffle) },
        PropertySpec("Metadata", MPRISTypes.metadata,
                     same: { $0.player.metadata == $1.player.metadata }) { $0.player.metadata.dbusValue },
        PropertySpec("Volume", .double, .readwrite) { .double($0.player.volume) },
        PropertySpec("Position", .int64, emits: .false) { .int64($0.player.position) },
        PropertySpec("MinimumRate", .double) { .double($0.player.minimumRate) },
        PropertySpec("MaximumRate", .double) { .double($0.player.maximumRate) },
        PropertySpec("CanGoNext", .boolean) { .boolean($0.player.canGoNext) },
        PropertySpec("CanGoPrevious", .boolean) { .boolean($0.player.canGoPrevious) },
        PropertySpec("CanPlay", .boolean) { .boolean($0.player.canPlay) },
        PropertySpec("CanPause", .boolean) { .boolean($0.player.canPause) },
        PropertySpec("CanSeek", .boolean) { .boolean($0.player.canSeek) },
        PropertySpec("CanControl", .boolean, emits: .false) { .boolean($0.player.canControl) },
    ]

    static let trackList: [PropertySpec] = [
        PropertySpec("Tracks", .array(.objectPath), emits: .invalidates,
                     same: { $0.trackList.tracks == $1.trackList.tracks }) {
            .array(.objectPath, $0.trackList.tracks.map { .objectPath($0.path) })
        },
        PropertySpec("CanEditTracks", .boolean) { .boolean($0.trackList.canEditTracks) },
    ]

    static let playlists: [PropertySpec] = [
        PropertySpec("PlaylistCount", .uint32) { .uint32($0.playlists.playlistCount) },
        PropertySpec("Orderings", .array(.string)) { $0.playlists.orderings.map(\.rawValue).dbusValue },
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
