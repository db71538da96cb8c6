import FoundationEssentials
import Glibc

extension ArtCache {
    /// Cached art is as private as linnet's state: directories 0700, files 0600. Art comes
    /// from the user's files (and streams they played), and the cache says what they listen to.
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Creates `path` and its missing parents with ``directoryMode``; directories that exist
    /// keep their mode.
    static func createPrivateDirectories(_ path: String) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !parent.isEmpty, parent != path, !createPrivateDirectories(parent) { return false }
        return mkdir(path, directoryMode) == 0 || errno == EEXIST
    }

    /// Writes `bytes` to `path` through a temporary file created with ``fileMode`` and renamed
    /// over it: a reader never sees half an image, concurrent writers of the same hash both end
    /// with the same complete file, and the file is never readable by others, not for a moment.
    static func writePrivately(_ bytes: [UInt8], to path: String) -> Bool {
        let temporary = "\(path).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard fd >= 0 else { return false }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let closed = close(fd) == 0
        guard written == bytes.count, closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
