public import DBus

/// The names MPRIS reserves on the bus.
public enum MPRISNames {
    /// "/org/mpris/MediaPlayer2", the one object every MPRIS player exports.
    public static let objectPath: ObjectPath = "/org/mpris/MediaPlayer2"
    /// `org.mpris.MediaPlayer2`, the root interface.
    public static let root: InterfaceName = "org.mpris.MediaPlayer2"
    /// `org.mpris.MediaPlayer2.Player`.
    public static let player: InterfaceName = "org.mpris.MediaPlayer2.Player"
    /// `org.mpris.MediaPlayer2.TrackList`.
    public static let trackList: InterfaceName = "org.mpris.MediaPlayer2.TrackList"
    /// `org.mpris.MediaPlayer2.Playlists`.
    public static let playlists: InterfaceName = "org.mpris.MediaPlayer2.Playlists"
    /// The prefix of every player's bus name.
    public static let busNamePrefix = "org.mpris.MediaPlayer2."
    /// The annotation marking a property that players may leave out.
    static let optionalAnnotation = DBusAnnotation(name: "org.mpris.MediaPlayer2.property.optional", value: "true")
}
