/// One entry of the play queue: a URI with an id that stays the same while the entry is queued
/// (track ids on the bus are derived from it, so clients can address entries reliably).
///
/// The URI is kept in two parts: its folder (everything up to the last `/`), which entries from
/// the same folder share, and the name after it, which Swift stores inline when it fits in 15
/// UTF-8 bytes. A 100 000-entry queue from a few folders then holds each folder once instead
/// of a heap copy of every full URI (~80 bytes each).
public struct QueueEntry: Hashable, Sendable, Identifiable {
    /// Unique within one queue for its whole life, never reused.
    public let id: UInt64
    /// The URI up to and including its last `/` (empty when it has none).
    fileprivate var folder: String
    /// The URI after ``folder``.
    private var name: String

    /// What to play: `file://…`, `http(s)://…`.
    public var uri: String {
        get { folder.isEmpty ? name : folder + name }
        set { (folder, name) = Self.split(newValue, sharingFolderOf: nil) }
    }

    /// Creates an entry.
    public init(id: UInt64, uri: String) {
        self.init(id: id, uri: uri, sharingFolderOf: nil)
    }

    /// Creates an entry that shares its folder's storage with `neighbour` when both URIs have
    /// the same folder (consecutive entries usually do: a folder's files, a playlist's lines).
    init(id: UInt64, uri: String, sharingFolderOf neighbour: QueueEntry?) {
        self.id = id
        (folder, name) = Self.split(uri, sharingFolderOf: neighbour)
    }

    /// `uri` as folder and name, the folder taken from `neighbour` when it is the same, so no
    /// copy of it is made.
    private static func split(_ uri: String, sharingFolderOf neighbour: QueueEntry?) -> (folder: String, name: String) {
        let bytes = uri.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("", uri) }
        let nameStart = bytes.index(after: slash)
        let name = String(uri[nameStart...])
        if let shared = neighbour?.folder, shared.utf8.count == bytes.distance(from: bytes.startIndex, to: nameStart),
            bytes.starts(with: shared.utf8)
        {
            return (shared, name)
        }
        return (String(uri[..<nameStart]), name)
    }
}

extension QueueEntry: Codable {
    // Saved as {"id", "uri"}: the split is a memory layout, not part of the format.
    private enum CodingKeys: String, CodingKey {
        case id, uri
    }

    /// Reads an entry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(UInt64.self, forKey: .id), uri: try container.decode(String.self, forKey: .uri))
    }

    /// Writes an entry.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(uri, forKey: .uri)
    }
}

extension [QueueEntry] {
    /// The same entries, each sharing its folder's storage with the one before it when the
    /// folders are the same (entries decoded one by one each made their own copy).
    func sharingFolders() -> [QueueEntry] {
        var shared: [QueueEntry] = []
        shared.reserveCapacity(count)
        for var entry in self {
            if let previous = shared.last, previous.folder == entry.folder { entry.folder = previous.folder }
            shared.append(entry)
        }
        return shared
    }
}

/// What happens at the end of a track and of the queue (MPRIS `LoopStatus`).
public enum RepeatMode: String, Sendable, Codable, CaseIterable {
    /// Play through the queue once, then stop.
    case none
    /// Repeat the current track.
    case track
    /// Loop the whole queue.
    case playlist
}
