import Glibc
public import Logging
public import Playback
import Synchronization

/// The persistent tag cache: one SQLite database (WAL mode) in `$XDG_CACHE_HOME/linnet/`,
/// one row per local file keyed by path and holding the size and modification time it was read
/// at, so a start with an unchanged library reads no tags.
///
/// Never required for correctness: a database that is damaged or of another schema version is
/// deleted and built again; any other SQLite failure (unwritable folder, full disk, a lock held
/// too long) is logged once and the cache then answers misses and drops writes. Callers are the
/// scanner's threads and tasks, never the loop thread; writes are batched into transactions.
public final class LibraryCache: ScanCache {
    /// The layout of the `tracks` table and of ``TrackRecord``; a database of any other version
    /// is rebuilt.
    public static let schemaVersion: Int64 = 1
    /// The database file's name in the cache folder.
    public static let fileName = "library.sqlite3"
    /// Pending writes that make one transaction.
    static let batchSize = 512

    /// The database file.
    public let path: String
    private let schemaVersion: Int64
    private let directory: String
    private let logger: Logger
    private let state = Mutex(State())
    /// Closes the database, and SQLite with it, after a while without a lookup or write.
    private let idle = IdleTimer(delay: UnloadableLibrary.idleDelay)

    private struct State: ~Copyable {
        var phase = Phase.unopened
        var pending: [(FileIdentity, ScannedTrack)] = []
    }

    private enum Phase {
        case unopened
        case open(Connection)
        case disabled
    }

    /// A cache in `directory` (created on first use), reporting trouble to `logger`. Nothing is
    /// opened until the first lookup or write.
    public convenience init(directory: String, logger: Logger) {
        self.init(directory: directory, logger: logger, schemaVersion: Self.schemaVersion)
    }

    /// A cache of another schema version, for tests of a version change.
    init(directory: String, logger: Logger, schemaVersion: Int64) {
        self.schemaVersion = schemaVersion
        self.directory = directory
        path = directory + "/" + Self.fileName
        self.logger = logger
        idle.onIdle { [weak self] in self?.closeWhileIdle() }
    }

    /// `$XDG_CACHE_HOME/linnet`, or `~/.cache/linnet` when XDG_CACHE_HOME is unset or relative.
    public static func standardDirectory(environment: [String: String]) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/linnet" }
        return (environment["HOME"] ?? "/") + "/.cache/linnet"
    }

    public func lookup(_ files: [FileIdentity]) -> [ScannedTrack?] {
        defer { idle.touch() }
        return state.withLock { state in
            guard let connection = connection(&state) else { return Array(repeating: nil, count: files.count) }
            do throws(SQLiteDatabase.Failure) {
                return try connection.database.transaction(writing: false) { () throws(SQLiteDatabase.Failure) in
                    var tracks: [ScannedTrack?] = []
                    tracks.reserveCapacity(files.count)
                    for file in files { tracks.append(try connection.track(for: file)) }
                    return tracks
                }
            } catch {
                disable(&state, error)
                return Array(repeating: nil, count: files.count)
            }
        }
    }

    public func store(_ track: ScannedTrack, for file: FileIdentity) {
        defer { idle.touch() }
        state.withLock { state in
            if case .disabled = state.phase { return }
            state.pending.append((file, track))
            if state.pending.count >= Self.batchSize { write(&state) }
        }
    }

    public func flush() {
        defer { idle.touch() }
        state.withLock { write(&$0) }
    }

    public func forget(_ paths: [String]) {
        defer { idle.touch() }
        state.withLock { state in
            write(&state)
            guard !paths.isEmpty, let connection = connection(&state) else { return }
            do throws(SQLiteDatabase.Failure) {
                try connection.database.transaction(writing: true) { () throws(SQLiteDatabase.Failure) in
                    for path in paths { try connection.remove(path) }
                }
            } catch {
                disable(&state, error)
            }
        }
    }

    /// Writes what is pending and closes the database, then SQLite; the next lookup or write
    /// opens both again.
    private func closeWhileIdle() {
        let closed = state.withLock { state in
            write(&state)
            guard case .open = state.phase else { return false }
            state.phase = .unopened
            return true
        }
        if closed { UnloadableLibrary.sqlite.unloadIfUnused() }
    }

    private func write(_ state: inout State) {
        guard !state.pending.isEmpty else { return }
        let batch = state.pending
        state.pending.removeAll(keepingCapacity: true)
        guard let connection = connection(&state) else { return }
        do {
            try connection.database.transaction(writing: true) { () throws(SQLiteDatabase.Failure) in
                for (file, track) in batch { try connection.insert(track, for: file) }
            }
        } catch {
            disable(&state, error)
        }
    }

    private func connection(_ state: inout State) -> Connection? {
        switch state.phase {
        case .open(let connection): return connection
        case .disabled: return nil
        case .unopened:
            do throws(SQLiteDatabase.Failure) {
                let connection = try open()
                state.phase = .open(connection)
                return connection
            } catch {
                disable(&state, error)
                return nil
            }
        }
    }

    /// Stops using the cache for the rest of the process, saying why once. A damaged file is
    /// removed so the next start builds a fresh one.
    private func disable(_ state: inout State, _ failure: SQLiteDatabase.Failure) {
        state.phase = .disabled
        state.pending.removeAll()
        if failure.isCorruption { removeFiles() }
        logger.warning("The library cache at \(path) is unusable (\(failure)); reading tags without it")
    }

    /// Opens the database, rebuilding it when it is damaged or of another schema version.
    private func open() throws(SQLiteDatabase.Failure) -> Connection {
        try createDirectories()
        do {
            try createPrivateFile()
            if let connection = try Connection.existing(path: path, schemaVersion: schemaVersion) {
                return connection
            }
            logger.notice("The library cache at \(path) has another schema version; rebuilding it")
        } catch where error.isCorruption {
            logger.notice("The library cache at \(path) is damaged (\(error)); rebuilding it")
        }
        removeFiles()
        try createPrivateFile()
        return try Connection.created(path: path, schemaVersion: schemaVersion)
    }

    /// Makes the database file 0600 before SQLite opens it: SQLite would create it 0644, and its
    /// -wal and -shm files copy the database's mode. The cache lists a user's music, as private
    /// as the state folder.
    private func createPrivateFile() throws(SQLiteDatabase.Failure) {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SQLiteDatabase.Failure(code: SQLITE_CANTOPEN_CODE, message: "cannot create \(path): errno \(errno)")
        }
        _ = fchmod(descriptor, 0o600)
        close(descriptor)
    }

    private func removeFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    private func createDirectories() throws(SQLiteDatabase.Failure) {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw SQLiteDatabase.Failure(code: SQLITE_CANTOPEN_CODE, message: "cannot create \(prefix): errno \(errno)")
            }
        }
    }
}

/// SQLITE_CANTOPEN, for folder failures found before SQLite is asked.
let SQLITE_CANTOPEN_CODE: Int32 = 14
