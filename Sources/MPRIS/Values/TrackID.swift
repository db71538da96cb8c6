public import DBus

/// MPRIS's `Track_Id`: "Unique track identifier." An object path that names one entry of the
/// track list; "/org/mpris/MediaPlayer2/TrackList/NoTrack" means no track.
///
/// "Media players may not use any paths starting with /org/mpris unless explicitly allowed by
/// this specification", so ids under `/org/mpris` (other than ``noTrack``) are refused.
public struct TrackID: Hashable, Sendable, CustomStringConvertible {
    /// The object path carried on the bus.
    public let path: ObjectPath

    /// "/org/mpris/MediaPlayer2/TrackList/NoTrack": "used to indicate 'no track'".
    public static let noTrack = TrackID(unchecked: "/org/mpris/MediaPlayer2/TrackList/NoTrack")

    /// Wraps `path`, or returns nil if it lies in the reserved `/org/mpris` namespace.
    public init?(_ path: ObjectPath) {
        guard !path.isDescendant(of: Self.reservedPrefix) else { return nil }
        self.path = path
    }

    /// Kept, not written as a literal at the check: a literal path is validated each time it is made.
    private static let reservedPrefix: ObjectPath = "/org/mpris"

    /// A track id from a path string, or nil if invalid or reserved.
    public init?(_ string: String) {
        guard let path = ObjectPath(rawValue: string) else { return nil }
        self.init(path)
    }

    /// Reads a track id as a client sent it: `NoTrack` is recognised, other reserved paths are not.
    init?(received path: ObjectPath) {
        if path == Self.noTrack.path {
            self = .noTrack
        } else {
            self.init(path)
        }
    }

    private init(unchecked path: ObjectPath) { self.path = path }

    /// Whether this is ``noTrack``.
    public var isNoTrack: Bool { self == .noTrack }

    public var description: String { path.rawValue }
}
