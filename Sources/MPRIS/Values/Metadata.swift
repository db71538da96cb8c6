public import DBus

/// MPRIS's `Metadata_Map`: what is known about one track, typed as the spec and real clients
/// require (`xesam:artist` is `as`, numbers are `i`, `mpris:length` is `x` microseconds, ...).
/// "If there is no current track, ... the metadata map should be empty" — use ``empty``.
public struct Metadata: Hashable, Sendable {
    /// `mpris:trackid` (`o`): "D-Bus path: A unique identity for this track within the context of an MPRIS object."
    public var trackID: TrackID?
    /// `mpris:length` (`x`): "The duration of the track in microseconds."
    public var length: Microseconds?
    /// `mpris:artUrl` (`s`): "The location of an image representing the track or album."
    public var artURL: String?
    /// `xesam:album` (`s`): "The album name."
    public var album: String?
    /// `xesam:albumArtist` (`as`): "The album artist(s)."
    public var albumArtists: [String] = []
    /// `xesam:artist` (`as`): "The track artist(s)."
    public var artists: [String] = []
    /// `xesam:asText` (`s`): "The track lyrics."
    public var lyrics: String?
    /// `xesam:audioBPM` (`i`): "The speed of the music, in beats per minute."
    public var beatsPerMinute: Int32?
    /// `xesam:autoRating` (`d`): "An automatically-generated rating, based on things such as how often it has been played."
    public var autoRating: Double?
    /// `xesam:comment` (`as`): "A (list of) freeform comment(s)."
    public var comments: [String] = []
    /// `xesam:composer` (`as`): "The composer(s) of the track."
    public var composers: [String] = []
    /// `xesam:contentCreated` (`s`): "When the track was created. Usually only the year component will be useful." ISO 8601.
    public var contentCreated: String?
    /// `xesam:discNumber` (`i`): "The disc number on the album that this track is from."
    public var discNumber: Int32?
    /// `xesam:firstUsed` (`s`): "When the track was first played." ISO 8601.
    public var firstUsed: String?
    /// `xesam:genre` (`as`): "The genre(s) of the track."
    public var genres: [String] = []
    /// `xesam:lastUsed` (`s`): "When the track was last played." ISO 8601.
    public var lastUsed: String?
    /// `xesam:lyricist` (`as`): "The lyricist(s) of the track."
    public var lyricists: [String] = []
    /// `xesam:title` (`s`): "The track title."
    public var title: String?
    /// `xesam:trackNumber` (`i`): "The track number on the album disc."
    public var trackNumber: Int32?
    /// `xesam:url` (`s`): "The location of the media file."
    public var url: String?
    /// `xesam:useCount` (`i`): "The number of times the track has been played."
    public var useCount: Int32?
    /// `xesam:userRating` (`d`): "A user-specified rating. This should be in the range 0.0 to 1.0."
    public var userRating: Double?
    /// Further entries (player-specific keys such as `linnet:error`), sent as given.
    public var extra: [String: DBusValue] = [:]

    /// Metadata for the track `trackID`.
    public init(trackID: TrackID? = nil, title: String? = nil, artists: [String] = [], album: String? = nil,
                length: Microseconds? = nil) {
        self.trackID = trackID
        self.title = title
        self.artists = artists
        self.album = album
        self.length = length
    }

    /// The empty map, for "no current track".
    public static let empty = Metadata()

    /// Whether nothing at all is set.
    public var isEmpty: Bool { self == .empty }
}
