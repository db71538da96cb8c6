import LibraryFormats
public import FoundationEssentials
import Glibc
import Logging
import Synchronization

/// Keeps one Codable value in a JSON file that survives crashes: every save atomically replaces
/// the whole file (see ``save(_:)``), and a file that cannot be read back is set aside, never
/// overwritten unseen.
///
/// The file holds `{"version": N, "savedAt": <unix seconds>, "state": …}`. A file of another
/// version is set aside like a corrupt one; when a version 2 comes, its migration belongs in
/// ``load()``.
///
/// `Value` is required to be Codable where it is read and written, not on the class: with the
/// requirement on the class, making a store (three before the bus name) had the runtime look up
/// `Value`'s Decodable and Encodable conformances, each a scan of every conformance in the
/// process.
public final class StateStore<Value: Sendable>: Sendable {
    /// What ``load()`` found.
    public enum LoadResult: Sendable {
        /// The saved value.
        case loaded(Value)
        /// No state file exists (first run).
        case missing
        /// The file could not be used; it was renamed to `movedTo` (nil if even that failed)
        /// so the next save does not destroy it.
        case corrupt(reason: String, movedTo: String?)
    }

    /// The state file.
    public let fileURL: URL
    /// The format version written and accepted.
    public let version: Int
    /// Larger files are treated as corrupt rather than read into memory.
    public static var maxFileSize: Int { 64 << 20 }

    private let saving = Mutex(())
    /// Carries ``saveInBackground(_:onFailure:)``'s writes.
    let writer: BackgroundWriter
    private static var logger: Logger { Logger(label: "linnet.library") }

    /// A store for the file at `fileURL` writing format `version`.
    public init(fileURL: URL, version: Int = 1) {
        self.fileURL = fileURL
        self.version = version
        writer = BackgroundWriter(label: "linnet.save.\(fileURL.lastPathComponent)")
    }

    private var path: String { fileURL.path }
}

extension StateStore where Value: Codable {
    /// Reads the saved value. Never throws: a missing file is ``LoadResult/missing``, anything
    /// unreadable is moved aside and reported as ``LoadResult/corrupt(reason:movedTo:)``.
    public func load() -> LoadResult {
        for name in AtomicFile.removeStaleTemporaries(of: path) {
            Self.logger.notice("Removed \(name), left by a save that was interrupted")
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.read(path, limit: Self.maxFileSize)
        } catch .missing {
            return .missing
        } catch {
            // Too large: its start is read for salvage. A directory, FIFO or unreadable file
            // has nothing to read.
            if case .tooLarge = error { return setAside(reason: error.description, salvaging: nil) }
            return setAside(reason: error.description, salvaging: [])
        }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(VersionHeader.self, from: data) else {
            return setAside(reason: "not a linnet state file (no version field, or not JSON)", salvaging: bytes)
        }
        guard header.version == version else {
            // Another version's layout is not this one's to guess at: nothing is salvaged.
            return setAside(reason: "state version \(header.version), this linnet reads version \(version)", salvaging: [])
        }
        do {
            return .loaded(try decoder.decode(Envelope.self, from: data).state)
        } catch {
            return setAside(reason: "cannot decode the state: \(error)", salvaging: bytes)
        }
    }

    /// Replaces the saved value with `value`, atomically: a temporary file in the same
    /// directory is written and fsynced, renamed over the state file, and the directory is
    /// fsynced. The directory is created (mode 0700) if missing. On failure (unwritable
    /// directory, full disk) the error is thrown and the previous file is intact.
    public func save(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let envelope = Envelope(version: version, savedAt: Date().timeIntervalSince1970, state: value)
        var bytes: [UInt8]?
        if let spliced = value as? any SplicedJSONState { bytes = try encoder.encodeSplicing(envelope, array: spliced) }
        let data = try bytes ?? [UInt8](encoder.encode(envelope))
        // One save at a time keeps the file's final contents those of the last call.
        try saving.withLock { _ in
            do {
                try AtomicFile.write(data, to: path)
                SaveOutcomes.record(true, for: path)
            } catch {
                SaveOutcomes.record(false, for: path)
                throw error
            }
        }
    }

    private struct VersionHeader: Decodable {
        let version: Int
    }

    private struct Envelope: Codable {
        let version: Int
        let savedAt: Double?
        let state: Value
    }

    /// Renames the unusable state file to `<name>.corrupt-<UTC time>` (with a counter if that
    /// exists) and logs why. When `Value` is ``RecoverableState``, what it salvages from `bytes`
    /// (nil: the start of the moved file, read here) is loaded instead, and logged once.
    private func setAside(reason: String, salvaging bytes: [UInt8]?) -> LoadResult {
        let stamp = Self.timestamp()
        var movedTo: String?
        var failure: Int32 = 0
        for attempt in 0..<100 {
            let candidate = "\(path).corrupt-\(stamp)" + (attempt == 0 ? "" : "-\(attempt)")
            // link + unlink instead of rename: never replaces an earlier set-aside file.
            if link(path, candidate) == 0 {
                unlink(path)
                movedTo = candidate
                break
            }
            failure = errno
            if failure != EEXIST { break }
        }
        if let movedTo {
            Self.logger.error("State file \(path) is unusable (\(reason)); moved to \(movedTo)")
        } else {
            Self.logger.error("State file \(path) is unusable (\(reason)) and could not be moved aside: \(String(cString: strerror(failure)))")
        }
        if let recoverable = Value.self as? any RecoverableState.Type,
            let content = bytes ?? Self.start(of: movedTo ?? path),
            let (salvaged, summary) = recoverable.salvage(from: content), let value = salvaged as? Value
        {
            Self.logger.warning("Recovered \(summary) from the unusable state file \(movedTo ?? path)")
            // Written back at once (once the damaged file is safe aside): what was recovered
            // must not wait for a later change to be saved before the next crash.
            do {
                if movedTo != nil { try save(value) }
            } catch {
                Self.logger.error("cannot save what was recovered to \(path): \(error)")
            }
            return .loaded(value)
        }
        return .corrupt(reason: reason, movedTo: movedTo)
    }

    /// At most the first ``maxFileSize`` bytes of the file at `path` (one too large to load
    /// whole still has its start salvaged).
    private static func start(of path: String) -> [UInt8]? {
        try? BoundedFileReader.readStart(path, limit: maxFileSize)
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func twoDigits(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(parts.tm_year + 1900)" + twoDigits(parts.tm_mon + 1) + twoDigits(parts.tm_mday) + "T"
            + twoDigits(parts.tm_hour) + twoDigits(parts.tm_min) + twoDigits(parts.tm_sec) + "Z"
    }
}
