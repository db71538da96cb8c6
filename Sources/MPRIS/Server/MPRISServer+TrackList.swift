import DBus

extension MPRISServer {
    /// `org.mpris.MediaPlayer2.TrackList`.
    func makeTrackListInterface() -> DBusInterface {
        let metadataType = MPRISTypes.metadata
        return DBusInterface(
            name: MPRISNames.trackList,
            methods: [
                DBusMethod("GetTracksMetadata", inputs: [DBusArgument("TrackIds", .array(.objectPath))],
                           outputs: [DBusArgument("Metadata", .array(metadataType))]) { [weak self] call in
                    guard let self, let handler = trackListHandler else { return [.array(metadataType, [])] }
                    let ids = try call.argument(0, as: [ObjectPath].self)
                    guard ids.count <= Self.maximumTracksPerRequest else {
                        throw DBusError(.limitsExceeded, "at most \(Self.maximumTracksPerRequest) track ids per call")
                    }
                    let known = trackSetCache.set(of: state.withLock { $0.trackList.tracks })
                    let requested = ids.compactMap { TrackID(received: $0) }.filter { known.contains($0) }
                    return [.array(metadataType, handler.metadata(for: requested).map(\.dbusValue))]
                },
                DBusMethod("AddTrack", inputs: [DBusArgument("Uri", .string), DBusArgument("AfterTrack", .objectPath),
                                                DBusArgument("SetAsCurrent", .boolean)]) { [weak self] call in
                    try self?.addTrack(uri: call.argument(0), after: call.argument(1), setAsCurrent: call.argument(2))
                    return []
                },
                DBusMethod("RemoveTrack", inputs: [DBusArgument("TrackId", .objectPath)]) { [weak self] call in
                    try self?.editTrack(call.argument(0), requireEditable: true) { $0.removeTrack($1) }
                    return []
                },
                DBusMethod("GoTo", inputs: [DBusArgument("TrackId", .objectPath)]) { [weak self] call in
                    try self?.editTrack(call.argument(0), requireEditable: false) { $0.goTo($1) }
                    return []
                },
            ],
            properties: declare(PropertyTable.trackList),
            signals: [
                DBusSignalDeclaration("TrackListReplaced", arguments: [
                    DBusArgument("Tracks", .array(.objectPath)), DBusArgument("CurrentTrack", .objectPath),
                ]),
                DBusSignalDeclaration("TrackAdded", arguments: [
                    DBusArgument("Metadata", metadataType), DBusArgument("AfterTrack", .objectPath),
                ]),
                DBusSignalDeclaration("TrackRemoved", arguments: [DBusArgument("TrackId", .objectPath)]),
                DBusSignalDeclaration("TrackMetadataChanged", arguments: [
                    DBusArgument("TrackId", .objectPath), DBusArgument("Metadata", metadataType),
                ]),
            ])
    }

    /// The most ids one GetTracksMetadata call may ask for.
    static let maximumTracksPerRequest = 10_000

    private func addTrack(uri: String, after: ObjectPath, setAsCurrent: Bool) throws(DBusError) {
        guard let handler = trackListHandler else { return }
        guard let afterTrack = TrackID(received: after) else {
            throw DBusError(.invalidArgs, "\(DBusError.excerpt(after.rawValue)) is not a valid track id")
        }
        let (editable, tracks, schemes) = state.withLock {
            ($0.trackList.canEditTracks, $0.trackList.tracks, $0.root.supportedURISchemes)
        }
        // "If the CanEditTracks property is false, this has no effect" (and "may raise a NotSupported error").
        guard editable else { throw DBusError(.notSupported, "the track list cannot be edited (CanEditTracks is false)") }
        guard afterTrack.isNoTrack || trackSetCache.contains(afterTrack, in: tracks) else { return }
        guard let colon = uri.firstIndex(of: ":"), schemes.contains(uri[..<colon].lowercased()) else {
            throw DBusError(.notSupported, "unsupported URI \"\(DBusError.excerpt(uri))\"")
        }
        do {
            try handler.addTrack(uri: uri, after: afterTrack, setAsCurrent: setAsCurrent)
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError(.failed, String(describing: error))
        }
    }

    private func editTrack(
        _ path: ObjectPath, requireEditable: Bool,
        _ action: (any MPRISTrackListHandler, TrackID) -> Void
    ) throws(DBusError) {
        guard let handler = trackListHandler else { return }
        guard let track = TrackID(received: path), !track.isNoTrack else {
            throw DBusError(.invalidArgs, "\(DBusError.excerpt(path.rawValue)) is not a valid track id here")
        }
        let (editable, tracks) = state.withLock { ($0.trackList.canEditTracks, $0.trackList.tracks) }
        if requireEditable, !editable {
            throw DBusError(.notSupported, "the track list cannot be edited (CanEditTracks is false)")
        }
        // "If the track is not part of this tracklist, this has no effect."
        guard trackSetCache.contains(track, in: tracks) else { return }
        action(handler, track)
    }

    /// Replaces the whole track list and emits `TrackListReplaced(tracks, current)` with the
    /// invalidation of `Tracks`, plus any other changes made in `change`.
    public func replaceTrackList(_ tracks: [TrackID], current: TrackID, _ change: (inout MPRISState) -> Void = { _ in }) {
        updateTrackList(change: { state in
            state.trackList.tracks = tracks
            change(&state)
        }, signal: ("TrackListReplaced", [.array(.objectPath, tracks.map { .objectPath($0.path) }), .objectPath(current.path)]))
    }

    /// Inserts `metadata`'s track after `after` (``TrackID/noTrack``: at the start) and emits `TrackAdded`.
    public func addTrack(_ metadata: Metadata, after: TrackID, _ change: (inout MPRISState) -> Void = { _ in }) {
        guard let id = metadata.trackID else { return }
        updateTrackList(change: { state in
            let before = state.trackList.tracks
            var tracks = before
            let index = after.isNoTrack ? 0 : (tracks.firstIndex(of: after).map { $0 + 1 } ?? tracks.count)
            tracks.insert(id, at: index)
            state.trackList.tracks = tracks
            // Before `change`: should it touch the list too, the cache sees another list and rebuilds.
            trackSetCache.followEdit(from: before, to: tracks, inserted: id)
            change(&state)
        }, signal: ("TrackAdded", [metadata.dbusValue, .objectPath(after.path)]))
    }

    /// Removes `track` and emits `TrackRemoved`.
    public func removeTrack(_ track: TrackID, _ change: (inout MPRISState) -> Void = { _ in }) {
        updateTrackList(change: { state in
            let before = state.trackList.tracks
            state.trackList.tracks.removeAll { $0 == track }
            trackSetCache.followEdit(from: before, to: state.trackList.tracks, removed: track)
            change(&state)
        }, signal: ("TrackRemoved", [.objectPath(track.path)]))
    }

    /// Emits `TrackMetadataChanged` for `metadata`'s track.
    public func trackMetadataChanged(_ metadata: Metadata) {
        guard let id = metadata.trackID else { return }
        updateTrackList(change: { _ in }, signal: ("TrackMetadataChanged", [.objectPath(id.path), metadata.dbusValue]))
    }

    private func updateTrackList(change: (inout MPRISState) -> Void, signal: (MemberName, [DBusValue])) {
        state.withLock { state in
            let old = apply(change, to: &state)
            if trackListHandler != nil {
                try? connection.emitSignal(signal.0, interface: MPRISNames.trackList, path: MPRISNames.objectPath,
                                           arguments: signal.1)
            }
            emitChanges(from: old, to: state)
        }
    }
}
