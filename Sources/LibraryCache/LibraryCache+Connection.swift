import Playback

extension LibraryCache {
    /// An open database with its statements prepared once.
    final class Connection {
        let database: SQLiteDatabase
        private let select: SQLiteDatabase.Statement
        private let upsert: SQLiteDatabase.Statement
        private let delete: SQLiteDatabase.Statement

        private init(database: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
            self.database = database
            select = try database.prepare("SELECT size, mtime, record FROM tracks WHERE path = ?1")
            upsert = try database.prepare(
                "INSERT OR REPLACE INTO tracks (path, size, mtime, record) VALUES (?1, ?2, ?3, ?4)")
            delete = try database.prepare("DELETE FROM tracks WHERE path = ?1")
        }

        /// The database at `path` when it has `schemaVersion` (created there when nothing is);
        /// nil when it has another. Throws a corruption failure for a file that is not a sound
        /// database.
        static func existing(path: String, schemaVersion: Int64) throws(SQLiteDatabase.Failure) -> Connection? {
            let database = try SQLiteDatabase(path: path)
            // Reading the header is the first real access: a file that is not a database fails here.
            let version = try database.integer("PRAGMA user_version")
            if version == 0, try database.integer("SELECT count(*) FROM sqlite_master") == 0 {
                return try created(in: database, schemaVersion: schemaVersion)
            }
            guard version == schemaVersion else { return nil }
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            // Damage inside the table shows on a full pass; ~1 ms per 10 000 rows.
            _ = try database.integer("SELECT count(*) FROM tracks WHERE length(record) >= 0")
            return try Connection(database: database)
        }

        /// A new database at `path` (where nothing is).
        static func created(path: String, schemaVersion: Int64) throws(SQLiteDatabase.Failure) -> Connection {
            try created(in: SQLiteDatabase(path: path), schemaVersion: schemaVersion)
        }

        private static func created(in database: SQLiteDatabase, schemaVersion: Int64) throws(SQLiteDatabase.Failure)
            -> Connection
        {
            try database.execute("""
                PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
                CREATE TABLE tracks (path TEXT PRIMARY KEY NOT NULL, size INTEGER NOT NULL,
                                     mtime INTEGER NOT NULL, record BLOB NOT NULL) WITHOUT ROWID;
                PRAGMA user_version = \(schemaVersion);
                """)
            return try Connection(database: database)
        }

        /// The stored track of `file` if it was read at this size and modification time.
        func track(for file: FileIdentity) throws(SQLiteDatabase.Failure) -> ScannedTrack? {
            select.reset()
            try select.bind(1, file.path)
            guard try select.step(), select.integer(0) == file.size, select.integer(1) == file.modificationTime else {
                return nil
            }
            return TrackRecord.decode(select.bytes(2))
        }

        func insert(_ track: ScannedTrack, for file: FileIdentity) throws(SQLiteDatabase.Failure) {
            upsert.reset()
            try upsert.bind(1, file.path)
            try upsert.bind(2, file.size)
            try upsert.bind(3, file.modificationTime)
            try upsert.bind(4, TrackRecord.encode(track))
            _ = try upsert.step()
        }

        func remove(_ path: String) throws(SQLiteDatabase.Failure) {
            delete.reset()
            try delete.bind(1, path)
            _ = try delete.step()
        }
    }
}
