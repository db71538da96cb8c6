import DBus

extension MPRISServer {
    /// `org.mpris.MediaPlayer2.TrackList`.
    func makeTrackListInterface() -> DBusInterface {
        let metadataType = MPRISTypes.metadata
        return DBusInterface(
            name: MPRISNames.trackList,
            methods: [
                // Ids read in place and rows written straight into the reply: panels page
                // through the list with this call.
                DBusMethod("GetTracksMetadata", inputs: [DBusArgument("TrackIds", .array(.objectPath))],
                           outputs: [DBusArgument("Metadata", .array(metadataType))],
                           handler: .writingUndecoded { [weak self] call, writer in
                    let ids = try Self.receivedTrackIDs(call)
                    let (handler, requested) = self?.listedTracks(ids) ?? (nil, [])
                    writer.appendArray(of: .stringVariantDictionary) { array in
                        handler?.writeMetadata(for: requested, to: &array)
                    }
                }),
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

    /// GetTracksMetadata's ids, read in place from the call; reserved paths are left out.
    private static func receivedTrackIDs(_ call: DBusMethodCall) throws(DBusError) -> [TrackID] {
        var ids: [TrackID] = []
        var count = 0
        try call.forEachObjectPath(inArgument: 0) { path throws(DBusError) in
            count += 1
            guard count <= maximumTracksPerRequest else {
                throw DBusError(.limitsExceeded, "at most \(maximumTracksPerRequest) track ids per call")
            }
            if let id = TrackID(receivedPath: path) { ids.append(id) }
        }
        return ids
    }

    /// The track list handler and those of `ids` in the list, in order.
    private func listedTracks(_ ids: [TrackID]) -> (any MPRISTrackListHandler, [TrackID])? {
        guard let handler = trackListHandler else { return nil }
        let requested = state.withLock { state in
            ids.filter { trackSetCache.contains($0, in: state.trackList.tracks) }
        }
        return (handler, requested)
    }

    private func addTrack(uri: String, after: ObjectPath, setAsCurrent: Bool) throws(DBusError) {
        guard let handler = trackListHandler else { return }
        guard let afterTrack = TrackID(received: after) else {
            throw DBusError(.invalidArgs, "\(DBusError.excerpt(after.rawValue)) is not a valid track id")
        }
        let (editable, known, schemes) = state.withLock {
            ($0.trackList.canEditTracks, afterTrack.isNoTrack || trackSetCache.contains(afterTrack, in: $0.trackList.tracks),
             $0.root.supportedURISchemes)
        }
        // "If the CanEditTracks property is false, this has no effect" (and "may raise a NotSupported error").
        guard editable else { throw DBusError(.notSupported, "the track list cannot be edited (CanEditTracks is false)") }
        guard known else { return }
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
        let (editable, known) = state.withLock {
            ($0.trackList.canEditTracks, trackSetCache.contains(track, in: $0.trackList.tracks))
        }
        if requireEditable, !editable {
            throw DBusError(.notSupported, "the track list cannot be edited (CanEditTracks is false)")
        }
        // "If the track is not part of this tracklist, this has no effect."
        guard known else { return }
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
    ///
    /// - Parameter index: where the track lands, when the caller knows (its own queue does):
    ///   checked against `after` in O(1), saving a search of the list. A wrong or missing index
    ///   falls back to the search.
    public func addTrack(_ metadata: Metadata, after: TrackID, at index: Int? = nil,
                         _ change: (inout MPRISState) -> Void = { _ in }) {
        guard let id = metadata.trackID else { return }
        editTrackList(signal: ("TrackAdded", [metadata.dbusValue, .objectPath(after.path)]), change: change) { tracks in
            let position: Int
            if let index, tracks.indices.contains(index - 1) ? tracks[index - 1] == after : (index == 0 && after.isNoTrack) {
                position = index
            } else {
                position = after.isNoTrack ? 0 : (tracks.firstIndex(of: after).map { $0 + 1 } ?? tracks.count)
            }
            tracks.insert(id, at: position)
            trackSetCache.inserted(id)
            return true
        }
    }

    /// Removes `track` and emits `TrackRemoved`.
    ///
    /// - Parameter index: where the track is, when the caller knows: checked in O(1), saving a
    ///   search of the list. A wrong or missing index falls back to the search.
    public func removeTrack(_ track: TrackID, at index: Int? = nil, _ change: (inout MPRISState) -> Void = { _ in }) {
        editTrackList(signal: ("TrackRemoved", [.objectPath(track.path)]), change: change) { tracks in
            // Track ids are unique in a list (the spec requires it), so the one at `index` is the only one.
            if let index, tracks.indices.contains(index), tracks[index] == track {
                tracks.remove(at: index)
            } else {
                let before = tracks.count
                tracks.removeAll { $0 == track }
                guard tracks.count != before else { return false }
            }
            trackSetCache.removed(track)
            return true
        }
    }

    /// Emits `TrackMetadataChanged` for `metadata`'s track.
    public func trackMetadataChanged(_ metadata: Metadata) {
        guard let id = metadata.trackID else { return }
        updateTrackList(change: { _ in }, signal: ("TrackMetadataChanged", [.objectPath(id.path), metadata.dbusValue]))
    }

    private func updateTrackList(change: (inout MPRISState) -> Void, signal: (MemberName, [DBusValue])) {
        state.withLock { state in
            let old = apply(change, to: &state)
            if old.trackList.tracks != state.trackList.tracks { trackSetCache.invalidate() }
            if trackListHandler != nil {
                try? connection.emitSignal(signal.0, interface: MPRISNames.trackList, path: MPRISNames.objectPath,
                                           arguments: signal.1)
            }
            emitChanges(from: old, to: state)
        }
    }

    /// Applies `edit` to the list in place, then `change`, emits `signal` and the changes.
    ///
    /// The list is taken out of the state for the edit: `old` (kept for the comparison) would
    /// otherwise share its buffer, and inserting one id into 100 000 would copy them all.
    /// `edit` returns whether it changed the list; `Tracks` is invalidated only then.
    private func editTrackList(signal: (MemberName, [DBusValue]), change: (inout MPRISState) -> Void,
                               edit: (inout [TrackID]) -> Bool) {
        state.withLock { state in
            var tracks = state.trackList.tracks
            state.trackList.tracks = []
            let edited = edit(&tracks)
            state.trackList.tracks = tracks
            tracks = []
            let old = apply(change, to: &state)
            if old.trackList.tracks != state.trackList.tracks { trackSetCache.invalidate() }
            if trackListHandler != nil {
                try? connection.emitSignal(signal.0, interface: MPRISNames.trackList, path: MPRISNames.objectPath,
                                           arguments: signal.1)
            }
            emitChanges(from: old, to: state, tracksEdited: edited)
        }
    }
}
