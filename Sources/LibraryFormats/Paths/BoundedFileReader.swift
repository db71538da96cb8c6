public import Glibc

/// Why a file could not be read.
public enum FileAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case missing(path: String)
    /// The path names a directory, FIFO, device or socket.
    case notRegularFile(path: String)
    /// The file exists but may not be opened or read (the `errno` text says why).
    case unreadable(path: String, reason: String)
    /// The file is larger than the caller allows.
    case tooLarge(path: String, size: Int, limit: Int)

    /// A sentence naming the path and the problem.
    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        case .notRegularFile(let path): "\(path): not a regular file"
        case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
        case .tooLarge(let path, let size, let limit): "\(path): \(size) bytes is more than the limit of \(limit)"
        }
    }
}

/// Reads whole small files (playlists, lyrics, state) with a size cap.
///
/// Opens first and checks the opened descriptor, so a file swapped between a check and the read
/// cannot slip through; `O_NONBLOCK` keeps a FIFO posing as a playlist from hanging the caller.
public enum BoundedFileReader {
    /// The kind of thing at `path` after following symlinks, or an error saying why it cannot
    /// be opened for reading.
    public static func openForReading(_ path: String, followSymlinks: Bool = true) throws(FileAccessError) -> (fd: Int32, info: stat) {
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        if !followSymlinks { flags |= O_NOFOLLOW }
        let fd = open(path, flags)
        guard fd >= 0 else { throw error(for: errno, path: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .unreadable(path: path, reason: reason)
        }
        return (fd, info)
    }

    /// The bytes of the regular file at `path`, refusing anything larger than `limit`.
    public static func read(_ path: String, limit: Int, followSymlinks: Bool = true) throws(FileAccessError) -> [UInt8] {
        let (fd, info) = try openForReading(path, followSymlinks: followSymlinks)
        defer { close(fd) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        let declared = Int(info.st_size)
        guard declared <= limit else { throw .tooLarge(path: path, size: declared, limit: limit) }
        // Read until EOF rather than trusting st_size: the file may grow while being read.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(declared)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { throw .tooLarge(path: path, size: bytes.count, limit: limit) }
        }
        return bytes
    }

    /// The first `limit` bytes (or fewer) of the regular file at `path`, however large it is.
    public static func readStart(_ path: String, limit: Int) throws(FileAccessError) -> [UInt8] {
        let (fd, info) = try openForReading(path)
        defer { close(fd) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        var bytes = [UInt8](repeating: 0, count: min(limit, max(Int(info.st_size), 0)))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return Array(bytes[..<filled])
    }

    public static func error(for code: Int32, path: String) -> FileAccessError {
        switch code {
        case ENOENT, ENOTDIR: .missing(path: path)
        default: .unreadable(path: path, reason: String(cString: strerror(code)))
        }
    }
}
