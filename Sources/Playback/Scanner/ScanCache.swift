import Glibc

/// Where the scanner keeps what it read, so that a file is read once while it stays the same.
///
/// The scanner calls it from its own threads and from callers' tasks, never from the loop
/// thread. A cache may fail in any way; it then answers misses, and scanning still works.
public protocol ScanCache: Sendable {
    /// Earlier results for `files`, in the same order; nil where nothing is stored for that exact
    /// path, size and modification time.
    func lookup(_ files: [FileIdentity]) -> [ScannedTrack?]
    /// Remembers `track` as read from `file`; may be written later, in a batch.
    func store(_ track: ScannedTrack, for file: FileIdentity)
    /// Writes what ``store(_:for:)`` still holds.
    func flush()
    /// Forgets what is stored for `paths` (files deleted or moved away).
    func forget(_ paths: [String])
}

/// A local file as the cache knows it: what it is called and what it looked like when read. A
/// rewrite changes the size or the modification time (nanoseconds), and so the identity.
public struct FileIdentity: Sendable, Hashable {
    /// The absolute path.
    public var path: String
    /// The size in bytes.
    public var size: Int64
    /// The modification time in nanoseconds since the epoch.
    public var modificationTime: Int64

    /// An identity from known values.
    public init(path: String, size: Int64, modificationTime: Int64) {
        self.path = path
        self.size = size
        self.modificationTime = modificationTime
    }

    /// The identity of the regular file at `path` now; nil when there is none.
    public static func current(path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileIdentity(
            path: path, size: Int64(info.st_size),
            modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}

/// How many scans the scanner answered, and how: a debug tally for logs and benchmarks.
public struct ScanTally: Sendable, Hashable, CustomStringConvertible {
    /// Answered from the ``ScanCache`` without opening the file.
    public var cacheHits = 0
    /// Read by TagLib.
    public var tagLibReads = 0
    /// Read by GStreamer's discoverer (streams, and files TagLib cannot read).
    public var gstreamerReads = 0
    /// Unreadable by both.
    public var failures = 0

    /// Nothing scanned yet.
    public init() {}

    public var description: String {
        "\(cacheHits) from the cache, \(tagLibReads) read by TagLib, \(gstreamerReads) by GStreamer, \(failures) unreadable"
    }
}

/// Which readers the scanner uses.
public enum TagSource: Sendable, Hashable {
    /// TagLib for local files, GStreamer for streams and for files TagLib cannot read.
    case tagLibFirst
    /// GStreamer's discoverer for everything (the former path, kept for comparison).
    case gstreamerOnly
}
