public import DBus

/// Commands of `org.mpris.MediaPlayer2`. Called on the D-Bus loop thread; return quickly and
/// publish the outcome with ``MPRISServer/update(_:)``.
public protocol MPRISRootHandler: Sendable {
    /// `Raise`: "Brings the media player's user interface to the front." Only called when CanRaise.
    func raise()
    /// `Quit`: "Causes the media player to stop running." Only called when CanQuit.
    func quit()
    /// `Fullscreen` was set by a client. Only called when CanSetFullscreen.
    func setFullscreen(_ fullscreen: Bool)
}

extension MPRISRootHandler {
    public func raise() {}
    public func setFullscreen(_ fullscreen: Bool) {}
}

/// Commands of `org.mpris.MediaPlayer2.Player`. The server has already applied the spec's
/// rules (Can* checks, rate 0 → pause, clamping, stale SetPosition, seeking past the end → Next)
/// so each method receives only requests the spec says to carry out. Called on the D-Bus loop
/// thread; return quickly and publish the outcome with ``MPRISServer/update(_:)``.
///
/// Next and Previous must keep a paused or stopped player paused or stopped.
public protocol MPRISPlayerHandler: Sendable {
    /// `Play`: "Starts or resumes playback."
    func play()
    /// `Pause`: "Pauses playback."
    func pause()
    /// `PlayPause`: "Pauses playback. If playback is already paused, resumes playback."
    func playPause()
    /// `Stop`: "Stops playback."
    func stop()
    /// `Next`: "Skips to the next track in the tracklist."
    func next()
    /// `Previous`: "Skips to the previous track in the tracklist."
    func previous()
    /// Seek and SetPosition, resolved to an absolute position within the current track.
    func seek(to position: Microseconds)
    /// `OpenUri`: "Opens the Uri given as an argument." The scheme is already checked against
    /// SupportedUriSchemes. Throw a `DBusError` to refuse it.
    func openURI(_ uri: String) throws
    /// `LoopStatus` was set by a client.
    func setLoopStatus(_ status: LoopStatus)
    /// `Shuffle` was set by a client.
    func setShuffle(_ shuffle: Bool)
    /// `Rate` was set by a client, clamped to [MinimumRate, MaximumRate] and never 0.
    func setRate(_ rate: Double)
    /// `Volume` was set by a client, never negative.
    func setVolume(_ volume: Double)
    /// The exact current position, if the player can tell; nil lets the server extrapolate
    /// from the last published position.
    func currentPosition() -> Microseconds?
}

extension MPRISPlayerHandler {
    public func playPause() {}
    public func openURI(_ uri: String) throws {}
    public func setLoopStatus(_ status: LoopStatus) {}
    public func setShuffle(_ shuffle: Bool) {}
    public func setRate(_ rate: Double) {}
    public func setVolume(_ volume: Double) {}
    public func currentPosition() -> Microseconds? { nil }
}

/// Commands of `org.mpris.MediaPlayer2.TrackList`. Track ids are checked to be in the list and
/// CanEditTracks is enforced before these are called.
public protocol MPRISTrackListHandler: Sendable {
    /// `GetTracksMetadata`: metadata for each id, in order (unknown ids may be left out).
    func metadata(for tracks: [TrackID]) -> [Metadata]
    /// `GetTracksMetadata` as the reply is written: appends ``metadata(for:)``'s maps to
    /// `writer` (inside the reply's array of `a{sv}`), each exactly as ``Metadata/write(to:)``
    /// writes it, and stops once the writer does (a refused string). A handler may append a
    /// kept ``Metadata/prepared`` map for a track whose metadata is unchanged; the default
    /// writes ``metadata(for:)``.
    func writeMetadata(for tracks: [TrackID], to writer: inout DBusMessageWriter)
    /// `AddTrack`: "Adds a URI in the TrackList." `after` is ``TrackID/noTrack`` for "at the start".
    func addTrack(uri: String, after: TrackID, setAsCurrent: Bool) throws
    /// `RemoveTrack`: "Removes an item from the TrackList."
    func removeTrack(_ track: TrackID)
    /// `GoTo`: "Skip to the specified TrackId."
    func goTo(_ track: TrackID)
}

extension MPRISTrackListHandler {
    public func writeMetadata(for tracks: [TrackID], to writer: inout DBusMessageWriter) {
        for metadata in metadata(for: tracks) where writer.isWriting {
            metadata.write(to: &writer)
        }
    }
}

/// Commands of `org.mpris.MediaPlayer2.Playlists`.
public protocol MPRISPlaylistsHandler: Sendable {
    /// `ActivatePlaylist`: "Starts playing the given playlist." Throw a `DBusError` for unknown ids.
    func activatePlaylist(_ id: ObjectPath) throws
    /// `GetPlaylists`: "Gets a set of playlists", already paged and ordered by the caller's wishes.
    func playlists(index: Int, maxCount: Int, order: PlaylistOrdering, reversed: Bool) -> [Playlist]
}
