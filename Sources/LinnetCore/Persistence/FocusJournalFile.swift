public import DesktopClients
import FoundationEssentials
public import Logging

/// The focus coordinator's journal in the instance's state folder (`focus.json`), kept by a
/// ``StateStore``: each save atomically replaces the file.
public struct FocusJournalFile: FocusJournalStoring {
    private let store: StateStore<[FocusJournalEntry]>
    private let logger: Logger

    /// The journal in `directory`.
    public init(directory: String, logger: Logger) {
        // Made whole with its kind given: `URL(fileURLWithPath:)` and `appendingPathComponent`
        // each ask the file system whether the path is a directory, and this runs before the
        // daemon's bus name.
        store = StateStore(fileURL: URL(filePath: directory + "/focus.json", directoryHint: .notDirectory))
        self.logger = logger
    }

    /// The saved entries; a corrupt file is set aside (and logged) and reads as empty.
    public func load() -> [FocusJournalEntry] {
        switch store.load() {
        case .loaded(let entries): return entries
        case .missing: return []
        case .corrupt(let reason, _):
            logger.warning("the audio focus journal was unreadable and was set aside: \(reason)")
            return []
        }
    }

    /// Replaces the journal, durably, before returning.
    public func save(_ entries: [FocusJournalEntry]) throws {
        try store.save(entries)
    }
}
