import LibraryFormats
import FoundationEssentials
import Glibc
import Synchronization

/// Replaces files so that a crash, a full disk or a concurrent reader never sees anything but
/// the complete old or the complete new contents.
///
/// The data goes to a fresh temporary file in the same directory (so the rename cannot cross
/// file systems), is fsynced, renamed over the target, and the directory is fsynced so the
/// rename itself survives a power cut. Any failure removes the temporary file and leaves the
/// target untouched.
enum AtomicFile {
    /// Distinguishes temporary files of concurrent writers in one process.
    private static let counter = Atomic<UInt64>(0)

    /// Writes `bytes` to `path`, creating missing parent directories with `directoryMode`.
    static func write(
        _ bytes: [UInt8], to path: String, fileMode: mode_t = 0o600, directoryMode: mode_t = 0o700
    ) throws(FileWriteError) {
        let directory = FileURI.normalized(path + "/..")
        try createDirectories(directory, mode: directoryMode)
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        let serial = counter.add(1, ordering: .relaxed).newValue
        let temporary = "\(directory)/\(temporaryPrefix(name))\(getpid())-\(serial)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard fd >= 0 else { throw FileWriteError(path: temporary, operation: "create temporary file", code: errno) }
        let failure = fill(fd, with: bytes, path: temporary)
        // close can report a deferred write error (NFS, quota): the data is then not safe.
        let closed = close(fd)
        let closeCode = errno
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard closed == 0 else {
            unlink(temporary)
            throw FileWriteError(path: temporary, operation: "close", code: closeCode)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileWriteError(path: path, operation: "rename", code: code)
        }
        try syncDirectory(directory)
    }

    /// Removes temporary files that writers of `path` left when they were killed mid-write
    /// (`kill -9`, power cut): those whose process is gone. A live writer's file is left alone,
    /// even another process's. Returns the names removed.
    @discardableResult
    static func removeStaleTemporaries(of path: String) -> [String] {
        let directory = FileURI.normalized(path + "/..")
        let prefix = temporaryPrefix(path.split(separator: "/").last.map(String.init) ?? "file")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count).prefix { $0 != "-" }) else {
                return false
            }
            let alive = pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH
            return !alive && unlink("\(directory)/\(name)") == 0
        }
    }

    /// Temporary files of `name` are `.<name>.tmp-<pid>-<serial>`: hidden, and traceable to
    /// their writer.
    private static func temporaryPrefix(_ name: String) -> String { ".\(name).tmp-" }

    /// Creates `path` and its missing parents with `mode`; existing directories are left as
    /// they are.
    static func createDirectories(_ path: String, mode: mode_t) throws(FileWriteError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw FileWriteError(path: path, operation: "create directory", code: ENOTDIR)
            }
            return
        }
        let parent = FileURI.normalized(path + "/..")
        if parent != path { try createDirectories(parent, mode: mode) }
        guard mkdir(path, mode) == 0 || errno == EEXIST else {
            throw FileWriteError(path: path, operation: "create directory", code: errno)
        }
    }

    /// Writes all of `bytes` to `fd` and fsyncs it; the error of the step that failed, if any.
    private static func fill(_ fd: Int32, with bytes: [UInt8], path: String) -> FileWriteError? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return FileWriteError(path: path, operation: "write", code: errno)
            }
            written += count
        }
        guard fsync(fd) == 0 else { return FileWriteError(path: path, operation: "fsync", code: errno) }
        return nil
    }

    private static func syncDirectory(_ directory: String) throws(FileWriteError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileWriteError(path: directory, operation: "open directory", code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileWriteError(path: directory, operation: "fsync directory", code: errno) }
    }
}
