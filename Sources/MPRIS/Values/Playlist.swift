public import DBus

/// MPRIS's `Playlist` struct `(oss)`: "A data structure describing a playlist."
public struct Playlist: Hashable, Sendable {
    /// "A unique identifier for the playlist." (`o`)
    public var id: ObjectPath
    /// "The name of the playlist, typically given by the user." (`s`)
    public var name: String
    /// "The URI of an (optional) icon." Empty when there is none. (`s`)
    public var icon: String

    /// Describes a playlist.
    public init(id: ObjectPath, name: String, icon: String = "") {
        self.id = id
        self.name = name
        self.icon = icon
    }

    /// The `(oss)` value.
    public var dbusValue: DBusValue { .structure([.objectPath(id), .string(name), .string(icon)]) }

    /// The `(b(oss))` value of `Maybe_Playlist` for `playlist` (false and a dummy when nil).
    static func maybe(_ playlist: Playlist?) -> DBusValue {
        let dummy = Playlist(id: "/", name: "", icon: "")
        return .structure([.boolean(playlist != nil), (playlist ?? dummy).dbusValue])
    }
}

/// MPRIS's `Playlist_Ordering`: "Specifies the ordering of returned playlists."
public enum PlaylistOrdering: String, Sendable, Hashable, CaseIterable {
    /// "Alphabetical ordering by name, ascending."
    case alphabetical = "Alphabetical"
    /// "Ordering by creation date, oldest first."
    case creationDate = "Created"
    /// "Ordering by last modified date, oldest first."
    case modifiedDate = "Modified"
    /// "Ordering by date of last playback, oldest first."
    case lastPlayDate = "Played"
    /// "A user-defined ordering."
    case userDefined = "User"
}
