internal import CSQLite
import Playback

/// One SQLite connection, used under its owner's lock (opened without SQLite's own mutex).
final class SQLiteDatabase {
    /// A failed SQLite call: its result code and message.
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        /// The file is not a database or is damaged: it should be rebuilt, not retried.
        var isCorruption: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }
        var description: String { "\(message) (SQLite code \(code))" }
    }

    private let handle: OpaquePointer

    /// Opens (creating if missing) the database at `path`.
    init(path: String) throws(Failure) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        // SQLite stays loaded while a connection lives; its statements keep the connection alive.
        UnloadableLibrary.sqlite.beginUse()
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            UnloadableLibrary.sqlite.endUse()
            throw Failure(code: code, message: message)
        }
        self.handle = handle
        // Another linnet (or a crashed one's recovery) may hold the write lock for a moment.
        sqlite3_busy_timeout(handle, 2000)
    }

    deinit {
        sqlite3_close_v2(handle)
        UnloadableLibrary.sqlite.endUse()
    }

    /// Runs `sql` (one or more statements without results).
    func execute(_ sql: String) throws(Failure) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// The first column of the first row of `sql`, as an integer.
    func integer(_ sql: String) throws(Failure) -> Int64 {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.integer(0)
    }

    func prepare(_ sql: String) throws(Failure) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return Statement(handle: statement, database: self)
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE` when it writes), rolled back if it throws.
    func transaction<T>(writing: Bool, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    fileprivate func failure(_ code: Int32) -> Failure {
        Failure(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// A prepared statement, reset and cleared before each use.
    final class Statement {
        private let handle: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(handle: OpaquePointer, database: SQLiteDatabase) {
            self.handle = handle
            self.database = database
        }

        deinit { sqlite3_finalize(handle) }

        func reset() {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }

        func bind(_ index: Int32, _ text: String) throws(Failure) {
            let code = text.withCString { linnet_sqlite_bind_text(handle, index, $0, -1) }
            guard code == SQLITE_OK else { throw database.failure(code) }
        }

        func bind(_ index: Int32, _ value: Int64) throws(Failure) {
            let code = sqlite3_bind_int64(handle, index, value)
            guard code == SQLITE_OK else { throw database.failure(code) }
        }

        func bind(_ index: Int32, _ bytes: [UInt8]) throws(Failure) {
            let code = bytes.withUnsafeBytes { linnet_sqlite_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
            guard code == SQLITE_OK else { throw database.failure(code) }
        }

        /// Steps once: true when a row is ready, false when done.
        func step() throws(Failure) -> Bool {
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE { return false }
            throw database.failure(code)
        }

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

        func bytes(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let base = sqlite3_column_blob(handle, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }
    }
}
