public import DesktopClients
public import FoundationEssentials
public import Playback
public import PlayerCore

/// How the player is set up: its bus name, audio output, where it keeps state, and the
/// command-line overrides of the saved session.
public struct PlayerConfiguration: Sendable {
    /// The bus name suffix: `org.mpris.MediaPlayer2.<busName>`.
    public var busName = "linnet"
    /// Where the audio goes.
    public var audioOutput: AudioOutput = .system
    /// The session file (queue, position, volume, loop, shuffle).
    public var sessionFile: URL
    /// Folders whose playlist files the Playlists interface offers.
    public var playlistDirectories: [URL]
    /// A repeat mode given on the command line, overriding the saved one.
    public var repeatMode: RepeatMode?
    /// A shuffle setting given on the command line, overriding the saved one.
    public var shuffle: Bool?
    /// A volume given on the command line, overriding the saved one.
    public var volume: Double?
    /// The user's home, against which relative playlist entries and `~` resolve.
    public var home: String
    /// Track notifications and what to do when the audio output goes away.
    public var desktop = PlayerDesktopBehaviour()
    /// Where scanned tags persist between starts; nil reads every file's tags each time.
    public var scanCache: (any ScanCache)?
    /// Which readers scan tags (GStreamer alone only to compare against the former path).
    public var tagSource = TagSource.tagLibFirst

    /// A configuration keeping state in `sessionFile` and offering the playlists in
    /// `playlistDirectories`. `home` is a parameter, not a property default: the default reads
    /// the password database, which a caller that knows the home need not wait for.
    public init(sessionFile: URL, playlistDirectories: [URL], home: String = URL.homeDirectory.path) {
        self.sessionFile = sessionFile
        self.playlistDirectories = playlistDirectories
        self.home = home
    }
}

/// The schemes and types GStreamer can play on this machine, computed once.
enum SupportedMedia {
    static let uriSchemes: [String] = MediaSupport.supportedURISchemes()
    static let mimeTypes: [String] = MediaSupport.supportedMIMETypes()
}
