import DBus

extension MPRISServer {
    /// `org.mpris.MediaPlayer2.Playlists`.
    func makePlaylistsInterface() -> DBusInterface {
        let playlistType = MPRISTypes.playlist
        return DBusInterface(
            name: MPRISNames.playlists,
            methods: [
                DBusMethod("ActivatePlaylist", inputs: [DBusArgument("PlaylistId", .objectPath)]) { [weak self] call in
                    guard let self, let handler = playlistsHandler else { return [] }
                    guard state.withLock({ $0.player.canControl }) else {
                        throw DBusError(.notSupported, "this player cannot be controlled (CanControl is false)")
                    }
                    do {
                        try handler.activatePlaylist(call.argument(0, as: ObjectPath.self))
                    } catch let error as DBusError {
                        throw error
                    } catch {
                        throw DBusError(.failed, String(describing: error))
                    }
                    return []
                },
                DBusMethod("GetPlaylists", inputs: [
                    DBusArgument("Index", .uint32), DBusArgument("MaxCount", .uint32),
                    DBusArgument("Order", .string), DBusArgument("ReverseOrder", .boolean),
                ], outputs: [DBusArgument("Playlists", .array(playlistType))]) { [weak self] call in
                    guard let self, let handler = playlistsHandler else { return [.array(playlistType, [])] }
                    let orderName = try call.argument(2, as: String.self)
                    guard let order = PlaylistOrdering(rawValue: orderName),
                        state.withLock({ $0.playlists.orderings.contains(order) })
                    else {
                        throw DBusError(.invalidArgs, "ordering \"\(DBusError.excerpt(orderName))\" is not offered (see Orderings)")
                    }
                    let playlists = handler.playlists(
                        index: Int(try call.argument(0, as: UInt32.self)),
                        maxCount: Int(try call.argument(1, as: UInt32.self)),
                        order: order, reversed: try call.argument(3, as: Bool.self))
                    return [.array(playlistType, playlists.map(\.dbusValue))]
                },
            ],
            properties: declare(PropertyTable.playlists),
            signals: [DBusSignalDeclaration("PlaylistChanged", arguments: [DBusArgument("Playlist", playlistType)])])
    }

    /// Emits `PlaylistChanged` ("Indicates that either the Name or Icon attribute of a playlist
    /// has changed"), updating ActivePlaylist too when it is that playlist.
    public func playlistChanged(_ playlist: Playlist) {
        state.withLock { state in
            let old = state
            if state.playlists.activePlaylist?.id == playlist.id { state.playlists.activePlaylist = playlist }
            if playlistsHandler != nil {
                try? connection.emitSignal("PlaylistChanged", interface: MPRISNames.playlists,
                                           path: MPRISNames.objectPath, arguments: [playlist.dbusValue])
            }
            emitChanges(from: old, to: state)
        }
    }
}
