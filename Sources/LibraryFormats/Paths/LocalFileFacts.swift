import Glibc

/// What the file system says about a local path: everything ``MediaAdmissionRule`` decides on,
/// gathered by ``inspect(_:)`` so that the rule itself stays a pure function of these values.
public struct LocalFileFacts: Sendable, Hashable {
    /// The kind of thing at the path, symlinks followed.
    public enum Kind: Sendable, Hashable {
        case missing, regular, directory, fifo, characterDevice, blockDevice, socket, other
    }

    /// What is there.
    public var kind: Kind
    /// `errno`'s text when the path could not even be examined (a permission on a folder above it).
    public var examineError: String?
    /// The path with every symlink resolved (`realpath`), for regular files and folders, when it
    /// could be resolved.
    public var canonicalPath: LocalPath?
    /// Whether the file or folder lives on the same file system as `/proc`, `/sys` or `/dev` (a
    /// bind mount of one of them elsewhere included).
    public var onSystemFileSystem = false
    /// `errno`'s text when opening the file for reading failed; nil when it opened (or was not tried).
    public var openError: String?
    /// A regular file's size in bytes and modification time in nanoseconds since the epoch, as
    /// examined (the opened file's, when it was opened): with the path, what a tag cache keys
    /// its rows by, so a folder walk's caller need not examine each file again.
    public var stamp: Stamp?

    /// A regular file's size and modification time.
    public struct Stamp: Sendable, Hashable {
        /// The size in bytes.
        public var size: Int64
        /// The modification time in nanoseconds since the epoch.
        public var modificationTime: Int64

        /// A stamp of known values.
        public init(size: Int64, modificationTime: Int64) {
            self.size = size
            self.modificationTime = modificationTime
        }

        init(_ info: stat) {
            self.init(size: Int64(info.st_size), modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
    }

    /// Facts with the given values (for tests of the rule, and for ``inspect(_:)``).
    public init(
        kind: Kind, examineError: String? = nil, canonicalPath: LocalPath? = nil, onSystemFileSystem: Bool = false,
        openError: String? = nil, stamp: Stamp? = nil
    ) {
        self.kind = kind
        self.examineError = examineError
        self.canonicalPath = canonicalPath
        self.onSystemFileSystem = onSystemFileSystem
        self.openError = openError
        self.stamp = stamp
    }

    /// Examines `path`: `stat` (following symlinks); for a regular file also `realpath` and its
    /// device, and, unless those show a kernel file system, an open for reading, which proves
    /// readability where permission bits alone would not (ACLs, root-squashed NFS).
    ///
    /// Nothing but a regular file is ever opened: opening a device can have effects (a watchdog
    /// starts counting, a tape rewinds).
    public static func inspect(_ path: LocalPath) -> LocalFileFacts {
        var info = stat()
        let status = path.withCString { stat($0, &info) }
        guard status == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR || code == ELOOP { return LocalFileFacts(kind: .missing) }
            return LocalFileFacts(kind: .missing, examineError: String(cString: strerror(code)))
        }
        return examine(path, info: info, canonical: { canonicalPath(of: path) }, readable: .open { path.withCString { open($0, openFlags) } })
    }

    /// ``inspect(_:)`` for a file listed in `folder`, whose canonical path (``canonicalPath(of:)``)
    /// the caller resolved once: a file that is not a symlink is the canonical folder plus its
    /// name, so its `realpath` (a `readlink` per path component; 40,000 for a 10,000-file folder)
    /// is left out. A symlink, or a path that is not directly in `folder`, is inspected in full.
    public static func inspect(_ path: LocalPath, inCanonicalFolder folder: LocalPath) -> LocalFileFacts {
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT != S_IFLNK,
              let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")), slash > path.bytes.startIndex,
              let canonical = LocalPath(absolute: folder.bytes + path.bytes[slash...])
        else { return inspect(path) }
        // Not a link: lstat's answer is stat's.
        return examine(path, info: info, canonical: { canonical }, readable: .open { path.withCString { open($0, openFlags) } })
    }

    /// ``inspect(_:inCanonicalFolder:)`` for the entry `name` of a folder open as `folder`
    /// (`path` being the folder's path plus `name`), as a folder walk examines each of its plain
    /// files: relative to the folder's descriptor, so the kernel looks up one name instead of the
    /// whole path, and with readability asked of the kernel (`faccessat` with the effective
    /// ids) instead of proved by an open. The kernel answers that through the same permission
    /// check an open makes (mode bits, ACLs, an NFS server's answer, FUSE, security modules'
    /// inode checks), so an unreadable file is refused alike, for a third of the cost (an open,
    /// fstat and close were ~7 µs per file here, 70 ms for a 10,000-file folder). Not seen:
    /// a denial only at open time (AppArmor's path rules, fanotify); such a file fails when it
    /// is read, and the player says so then.
    ///
    /// A name that is not an entry's (a slash, `..`), or one that is a symlink (or was swapped
    /// for one), is inspected in full.
    public static func inspect(entry name: String, of folder: OpenFolder, path: LocalPath) -> LocalFileFacts {
        guard let canonical = folder.canonicalPath?.appending(entry: name) else { return inspect(path) }
        var info = stat()
        guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT != S_IFLNK else {
            return inspect(path)
        }
        return examine(path, info: info, canonical: { canonical }, readable: .access { faccessat(folder.descriptor, name, R_OK, AT_EACCESS) })
    }

    /// How a regular file's readability is established.
    private enum ReadabilityCheck {
        /// Opening it (with ``openFlags``; the result is the descriptor), which also shows what
        /// the path named at that moment.
        case open(() -> Int32)
        /// Asking the kernel whether it may be opened for reading (0 when it may, else `errno`).
        case access(() -> Int32)
    }

    /// A folder open for looking up its entries, with its path with every symlink resolved.
    public struct OpenFolder: Sendable {
        /// The folder's descriptor (`O_DIRECTORY`), owned by whoever opened it.
        public let descriptor: Int32
        /// ``LocalFileFacts/canonicalPath(of:)`` of the folder; nil when it could not be resolved.
        public let canonicalPath: LocalPath?

        /// An open folder of known values.
        public init(descriptor: Int32, canonicalPath: LocalPath?) {
            self.descriptor = descriptor
            self.canonicalPath = canonicalPath
        }
    }

    /// Non-blocking and no controlling terminal: whatever a file turns out to be when opened,
    /// the open neither waits (a FIFO swapped in) nor acts on a terminal.
    private static let openFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC

    /// `path` with every symlink resolved (`realpath`), or nil when it cannot be resolved.
    public static func canonicalPath(of path: LocalPath) -> LocalPath? {
        path.withCString { raw -> LocalPath? in
            guard let resolved = realpath(raw, nil) else { return nil }
            defer { free(resolved) }
            let length = strlen(resolved)
            return resolved.withMemoryRebound(to: UInt8.self, capacity: length) {
                LocalPath(absolute: Array(UnsafeBufferPointer(start: $0, count: length)))
            }
        }
    }

    /// The facts of `path`, which `stat` described as `info`; `canonical` is asked only for
    /// regular files and folders, `readable` only for regular files outside the kernel's file
    /// systems.
    private static func examine(_ path: LocalPath, info: stat, canonical: () -> LocalPath?, readable: ReadabilityCheck) -> LocalFileFacts {
        var facts = LocalFileFacts(kind: kind(of: info.st_mode))
        // Folders are placed too: a folder given to be walked must not be one of the kernel's.
        guard facts.kind == .regular || facts.kind == .directory else { return facts }
        facts.canonicalPath = canonical()
        facts.onSystemFileSystem = isSystemDevice(UInt64(info.st_dev))
        guard facts.kind == .regular, !MediaAdmissionRule.isSystemLocation(facts) else { return facts }
        facts.stamp = Stamp(info)
        switch readable {
        case .access(let access):
            if access() != 0 { facts.openError = String(cString: strerror(errno)) }
        case .open(let open):
            let fd = open()
            guard fd >= 0 else {
                facts.openError = String(cString: strerror(errno))
                return facts
            }
            // The file may have been swapped between the stat and the open: judge what was opened.
            var opened = stat()
            if fstat(fd, &opened) == 0 {
                facts.kind = kind(of: opened.st_mode)
                facts.stamp = facts.kind == .regular ? Stamp(opened) : nil
            }
            close(fd)
        }
        return facts
    }

    /// The devices of the ``MediaAdmissionRule/systemFolders`` (procfs, sysfs, devtmpfs), read
    /// once: Glibc's module offers no `statfs`, and a device number identifies a mounted file
    /// system however it is reached.
    private static let systemDevices: Set<UInt64> = Set(MediaAdmissionRule.systemFolders.compactMap { folder in
        var info = stat()
        return stat(folder, &info) == 0 ? UInt64(info.st_dev) : nil
    })

    /// Whether `device` (a `stat`'s `st_dev`) is that of `/proc`, `/sys` or `/dev`: a folder walk
    /// skips such folders without listing them.
    public static func isSystemDevice(_ device: UInt64) -> Bool {
        systemDevices.contains(device)
    }

    private static func kind(of mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFIFO: .fifo
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFSOCK: .socket
        default: .other
        }
    }
}
