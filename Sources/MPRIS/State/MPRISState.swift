/// Everything an MPRIS player publishes, one struct per interface. The server diffs the state
/// before and after each ``MPRISServer/update(_:)`` and signals exactly what changed.
public struct MPRISState: Sendable, Equatable {
    /// `org.mpris.MediaPlayer2` properties.
    public var root: RootState
    /// `org.mpris.MediaPlayer2.Player` properties.
    public var player: PlayerState
    /// `org.mpris.MediaPlayer2.TrackList` properties (served when a track-list handler is given).
    public var trackList: TrackListState
    /// `org.mpris.MediaPlayer2.Playlists` properties (served when a playlists handler is given).
    public var playlists: PlaylistsState

    /// A state with `identity` and defaults everywhere else.
    public init(identity: String, desktopEntry: String? = nil) {
        root = RootState(identity: identity, desktopEntry: desktopEntry)
        player = PlayerState()
        trackList = TrackListState()
        playlists = PlaylistsState()
    }
}

/// `org.mpris.MediaPlayer2` properties.
public struct RootState: Sendable, Equatable {
    /// `Identity`: "A friendly name to identify the media player to users."
    public var identity: String
    /// `DesktopEntry`: "The basename of an installed .desktop file which complies with the Desktop entry specification."
    public var desktopEntry: String?
    /// `CanQuit`: "If false, calling Quit will have no effect, and may raise a NotSupported error."
    public var canQuit = true
    /// `CanRaise`: "If false, calling Raise will have no effect, and may raise a NotSupported error."
    public var canRaise = false
    /// `Fullscreen`: "Whether the media player is occupying the fullscreen."
    public var fullscreen = false
    /// `CanSetFullscreen`: "If false, attempting to set Fullscreen will have no effect."
    public var canSetFullscreen = false
    /// `HasTrackList`: "Indicates whether the /org/mpris/MediaPlayer2 object implements the
    /// org.mpris.MediaPlayer2.TrackList interface." Set by the server from its handlers.
    public internal(set) var hasTrackList = false
    /// `SupportedUriSchemes`: "The URI schemes supported by the media player."
    public var supportedURISchemes: [String] = []
    /// `SupportedMimeTypes`: "The mime-types supported by the media player."
    public var supportedMIMETypes: [String] = []

    /// Root properties for a player called `identity`.
    public init(identity: String, desktopEntry: String? = nil) {
        self.identity = identity
        self.desktopEntry = desktopEntry
    }
}

/// `org.mpris.MediaPlayer2.TrackList` properties.
public struct TrackListState: Sendable, Equatable {
    /// `Tracks`: "An array which contains the identifier of each track in the tracklist, in order."
    public var tracks: [TrackID] = []
    /// `CanEditTracks`: "If false, calling AddTrack or RemoveTrack will have no effect."
    public var canEditTracks = false

    /// An empty, read-only track list.
    public init() {}
}

/// `org.mpris.MediaPlayer2.Playlists` properties.
public struct PlaylistsState: Sendable, Equatable {
    /// `PlaylistCount`: "The number of playlists available."
    public var playlistCount: UInt32 = 0
    /// `Orderings`: "The available orderings. At least one must be offered."
    public var orderings: [PlaylistOrdering] = [.alphabetical]
    /// `ActivePlaylist`: "The currently-active playlist." nil when none is active.
    public var activePlaylist: Playlist?

    /// No playlists, alphabetical ordering.
    public init() {}
}
