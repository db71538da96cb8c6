import DBus

extension MPRISServer {
    /// `org.mpris.MediaPlayer2.Player`, with the spec's rules applied before the handler runs.
    func makePlayerInterface() -> DBusInterface {
        DBusInterface(
            name: MPRISNames.player,
            methods: [
                command("Next", requires: \.canGoNext) { $0.next() },
                command("Previous", requires: \.canGoPrevious) { $0.previous() },
                command("Pause", requires: \.canPause) { $0.pause() },
                DBusMethod("PlayPause") { [weak self] _ in
                    guard let self else { return [] }
                    // "If CanPause is false, attempting to call this method should have no effect and raise an error."
                    guard state.withLock({ $0.player.canControl && $0.player.canPause }) else {
                        throw DBusError(.notSupported, "PlayPause is not possible now (CanPause is false)")
                    }
                    playerHandler.playPause()
                    return []
                },
                DBusMethod("Stop") { [weak self] _ in
                    guard let self else { return [] }
                    // "If CanControl is false, attempting to call this method should have no effect and raise an error."
                    guard state.withLock({ $0.player.canControl }) else {
                        throw DBusError(.notSupported, "this player cannot be controlled (CanControl is false)")
                    }
                    playerHandler.stop()
                    return []
                },
                command("Play", requires: \.canPlay) { $0.play() },
                DBusMethod("Seek", inputs: [DBusArgument("Offset", .int64)]) { [weak self] call in
                    try self?.seek(by: call.argument(0, as: Int64.self))
                    return []
                },
                DBusMethod("SetPosition", inputs: [DBusArgument("TrackId", .objectPath), DBusArgument("Position", .int64)]) {
                    [weak self] call in
                    try self?.setPosition(track: call.argument(0, as: ObjectPath.self), position: call.argument(1, as: Int64.self))
                    return []
                },
                DBusMethod("OpenUri", inputs: [DBusArgument("Uri", .string)]) { [weak self] call in
                    try self?.openURI(call.argument(0, as: String.self))
                    return []
                },
            ],
            properties: declare(PropertyTable.player, setters: [
                "LoopStatus": { [weak self] value in try self?.setLoopStatus(value) },
                "Rate": { [weak self] value in try self?.setRate(value) },
                "Shuffle": { [weak self] value in try self?.setShuffle(value) },
                "Volume": { [weak self] value in try self?.setVolume(value) },
            ]),
            signals: [DBusSignalDeclaration("Seeked", arguments: [DBusArgument("Position", .int64)])],
            propertiesWriter: writeAll(PropertyTable.player, same: { $0.player == $1.player }))
    }

    /// A method that "should have no effect" when its Can* property (or CanControl) is false.
    private func command(
        _ name: MemberName, requires capability: any KeyPath<PlayerState, Bool> & Sendable,
        _ action: @escaping @Sendable (any MPRISPlayerHandler) -> Void
    ) -> DBusMethod {
        DBusMethod(name) { [weak self] _ in
            guard let self else { return [] }
            let allowed = state.withLock { $0.player.canControl && $0.player[keyPath: capability] }
            if allowed { action(playerHandler) }
            return []
        }
    }

    /// `Seek`: relative; before the start clamps to 0, past the end acts like Next.
    func seek(by offset: Int64) throws(DBusError) {
        let (canSeek, length, canGoNext) = state.withLock {
            ($0.player.canControl && $0.player.canSeek, $0.player.metadata.length, $0.player.canGoNext)
        }
        guard canSeek else { return }
        let (target, overflow) = livePosition().addingReportingOverflow(offset)
        if overflow ? offset > 0 : (length.map { target > $0 } ?? false) {
            // "If the value passed in would mean seeking beyond the end of the track, acts like a call to Next."
            if canGoNext { playerHandler.next() }
            return
        }
        let position = overflow ? 0 : max(0, target)
        playerHandler.seek(to: position)
        seeked(to: position)
    }

    /// `SetPosition`: absolute; stale ids, negative positions and positions past the end are
    /// ignored; NoTrack is not a valid argument.
    func setPosition(track: ObjectPath, position: Int64) throws(DBusError) {
        guard let requested = TrackID(received: track), !requested.isNoTrack else {
            throw DBusError(.invalidArgs, "\(DBusError.excerpt(track.rawValue)) is not a valid track id for SetPosition")
        }
        let (canSeek, current, length) = state.withLock {
            ($0.player.canControl && $0.player.canSeek, $0.player.metadata.trackID, $0.player.metadata.length)
        }
        guard canSeek, requested == current, position >= 0 else { return }
        if let length, position > length { return }
        playerHandler.seek(to: position)
        seeked(to: position)
    }

    /// `OpenUri`: the URI must parse and use a scheme listed in SupportedUriSchemes.
    func openURI(_ uri: String) throws(DBusError) {
        let (canControl, schemes) = state.withLock { ($0.player.canControl, $0.root.supportedURISchemes) }
        guard canControl else { throw DBusError(.notSupported, "this player cannot be controlled (CanControl is false)") }
        guard let colon = uri.firstIndex(of: ":"), uri.startIndex != colon else {
            throw DBusError(.invalidArgs, "\"\(DBusError.excerpt(uri))\" is not a URI")
        }
        let scheme = uri[..<colon].lowercased()
        guard schemes.contains(scheme) else {
            throw DBusError(.notSupported, "URI scheme \"\(DBusError.excerpt(scheme))\" is not supported (SupportedUriSchemes: \(schemes.joined(separator: ", ")))")
        }
        do {
            try playerHandler.openURI(uri)
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError(.failed, String(describing: error))
        }
    }

    private func requireControl() throws(DBusError) {
        guard state.withLock({ $0.player.canControl }) else {
            // "If CanControl is false, attempting to set this property should have no effect and raise an error."
            throw DBusError(.notSupported, "this player cannot be controlled (CanControl is false)")
        }
    }

    func setLoopStatus(_ value: DBusValue) throws(DBusError) {
        try requireControl()
        guard case .string(let text) = value, let status = LoopStatus(rawValue: text) else {
            throw DBusError(.invalidArgs, "LoopStatus must be None, Track or Playlist")
        }
        playerHandler.setLoopStatus(status)
    }

    func setShuffle(_ value: DBusValue) throws(DBusError) {
        try requireControl()
        guard case .boolean(let shuffle) = value else { throw DBusError(.invalidArgs, "Shuffle must be a boolean") }
        playerHandler.setShuffle(shuffle)
    }

    /// Rate 0.0 acts as Pause; other rates are clamped to [MinimumRate, MaximumRate]
    /// ("they may ... pick a 'best fit' value"); NaN and infinities are refused.
    func setRate(_ value: DBusValue) throws(DBusError) {
        try requireControl()
        guard case .double(let rate) = value, rate.isFinite else {
            throw DBusError(.invalidArgs, "Rate must be a finite number")
        }
        let (minimum, maximum, canPause) = state.withLock { ($0.player.minimumRate, $0.player.maximumRate, $0.player.canPause) }
        if rate == 0 {
            // "A value of 0.0 should not be set by the client. If it is, the media player should act as though Pause was called."
            if canPause { playerHandler.pause() }
            return
        }
        playerHandler.setRate(min(max(rate, minimum), maximum))
    }

    /// Negative volumes become 0.0; values above 1.0 are allowed; NaN and infinities are refused.
    func setVolume(_ value: DBusValue) throws(DBusError) {
        try requireControl()
        guard case .double(let volume) = value, volume.isFinite else {
            throw DBusError(.invalidArgs, "Volume must be a finite number")
        }
        // "When setting, if a negative value is passed, the volume should be set to 0.0."
        playerHandler.setVolume(max(0, volume))
    }
}
