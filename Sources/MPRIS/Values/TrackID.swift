public import DBus
import Synchronization

/// MPRIS's `Track_Id`: "Unique track identifier." An object path that names one entry of the
/// track list; "/org/mpris/MediaPlayer2/TrackList/NoTrack" means no track.
///
/// "Media players may not use any paths starting with /org/mpris unless explicitly allowed by
/// this specification", so ids under `/org/mpris` (other than ``noTrack``) are refused.
///
/// Storage: a path whose last element is a decimal number (`/org/example/track/42`) is kept as
/// its parent and the number, and the parent of a ``Numbering`` is shared by all its ids, so a
/// track list of 100 000 such ids holds no string per track (16 bytes each, where a path string
/// of its own took ~80). ``path`` spells the path out when it is asked for. Equality and hashing
/// are those of the path: every path has exactly one stored form.
public struct TrackID: Hashable, Sendable, CustomStringConvertible {
    private let stem: Stem
    /// The last element of a numbered path; 0 and unused when `stem` holds the whole path.
    private let number: UInt64

    /// The object path carried on the bus.
    public var path: ObjectPath {
        stem.isWholePath ? stem.path : stem.path.appending(number: number)
    }

    /// "/org/mpris/MediaPlayer2/TrackList/NoTrack": "used to indicate 'no track'".
    public static let noTrack = TrackID(unchecked: "/org/mpris/MediaPlayer2/TrackList/NoTrack")

    /// Wraps `path`, or returns nil if it lies in the reserved `/org/mpris` namespace.
    public init?(_ path: ObjectPath) {
        guard !path.isDescendant(of: Self.reservedPrefix) else { return nil }
        self.init(unchecked: path)
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
        var text = path.rawValue
        if let id = text.withUTF8(Self.numbered) {
            self = id
        } else {
            self.init(receivedOther: path)
        }
    }

    /// ``init(received:)`` for a path that is below no ``Numbering``.
    private init?(receivedOther path: ObjectPath) {
        if path == Self.noTrack.path {
            self = .noTrack
        } else {
            self.init(path)
        }
    }

    /// Reads a track id as a client sent it, from the UTF-8 bytes of a valid object path (as a
    /// received call holds them): a path below a ``Numbering`` builds no string.
    init?(receivedPath bytes: UnsafeBufferPointer<UInt8>) {
        if let id = Self.numbered(bytes) {
            self = id
        } else {
            // Not a path of ours (a stale or foreign id, NoTrack): the rare case, checked in full.
            guard let path = ObjectPath(rawValue: String(decoding: bytes, as: UTF8.self)) else { return nil }
            self.init(receivedOther: path)
        }
    }

    /// The stems of the ``Numbering``s made (a player has one or two): an id that a client sends
    /// below one of them shares its stem, so reading it builds no parent path and no stem, and
    /// it compares with the player's own ids by identity.
    private static let numberingStems = Mutex<[Stem]>([])
    /// More numberings than this are not shared (tests make many); their ids still read back equal.
    private static let sharedNumberingLimit = 8

    /// The path `bytes` as an id of a ``Numbering`` made before, when it is `<parent>/<number>` below one.
    private static func numbered(_ bytes: UnsafeBufferPointer<UInt8>) -> TrackID? {
        numberingStems.withLock { stems in
            for stem in stems {
                if let number = ObjectPath.number(ofPath: bytes, below: stem.path) {
                    return TrackID(stem: stem, number: number)
                }
            }
            return nil
        }
    }

    /// The stem below `parent` to share, registering it if there is room.
    private static func numberingStem(below parent: ObjectPath) -> Stem {
        numberingStems.withLock { stems in
            if let known = stems.first(where: { $0.path == parent }) { return known }
            let stem = Stem(parent, isWholePath: false)
            if stems.count < sharedNumberingLimit { stems.append(stem) }
            return stem
        }
    }

    private init(unchecked path: ObjectPath) {
        if let (parent, number) = path.parentAndNumber {
            self.init(stem: Stem(parent, isWholePath: false), number: number)
        } else {
            self.init(stem: Stem(path, isWholePath: true), number: 0)
        }
    }

    private init(stem: Stem, number: UInt64) {
        self.stem = stem
        self.number = number
    }

    /// Writes ``path`` as an `o` without building its string (the Tracks property of a 100 000-track
    /// list is read whole).
    public func appendPath(to writer: inout DBusMessageWriter) {
        if stem.isWholePath {
            writer.append(stem.path)
        } else {
            writer.appendObjectPath(stem.path, number: number)
        }
    }

    /// ``path`` as a value of a prepared map, which spells it out only when the map is built.
    var preparedPath: DBusPreparedDictionary.Value {
        stem.isWholePath ? .objectPath(stem.path) : .numberedObjectPath(parent: stem.path, number: number)
    }

    /// Whether this is ``noTrack``.
    public var isNoTrack: Bool { self == .noTrack }

    public var description: String { path.rawValue }

    /// The ids `<parent>/<number>` of one player's tracks: made and read back without building
    /// or parsing a path, all sharing one copy of `parent`.
    public struct Numbering: Sendable {
        private let stem: Stem

        /// The numbering below `parent`, or nil if its ids would lie in the reserved `/org/mpris`.
        public init?(parent: ObjectPath) {
            guard TrackID(parent.appending(number: 0)) != nil else { return nil }
            stem = TrackID.numberingStem(below: parent)
        }

        /// The id `<parent>/<number>`.
        public func id(_ number: UInt64) -> TrackID {
            TrackID(stem: stem, number: number)
        }

        /// The number of `id` if it is one of this numbering's ids (however it was made).
        public func number(of id: TrackID) -> UInt64? {
            id.stem == stem ? id.number : nil
        }
    }

    /// A path, or the parent of a numbered one; immutable, shared by copies of an id and by all
    /// the ids of a ``Numbering``.
    private final class Stem: Hashable, Sendable {
        let path: ObjectPath
        let isWholePath: Bool
        /// Hashed once: a set of 100 000 ids of one numbering hashes this for every id.
        private let pathHash: Int

        init(_ path: ObjectPath, isWholePath: Bool) {
            self.path = path
            self.isWholePath = isWholePath
            pathHash = path.hashValue
        }

        static func == (lhs: Stem, rhs: Stem) -> Bool {
            lhs === rhs || (lhs.isWholePath == rhs.isWholePath && lhs.pathHash == rhs.pathHash && lhs.path == rhs.path)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(pathHash)
            hasher.combine(isWholePath)
        }
    }
}
