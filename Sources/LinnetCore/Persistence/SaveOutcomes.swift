import Synchronization

/// How the most recent save of each state file went, by path, for whoever must report it
/// without holding the store: the daemon's exit status says when the last save before exit
/// failed, whichever component owned the store.
public enum SaveOutcomes {
    private static let outcomes = Mutex<[String: Bool]>([:])

    /// Records that the latest save of `path` succeeded or failed.
    static func record(_ succeeded: Bool, for path: String) {
        outcomes.withLock { $0[path] = succeeded }
    }

    /// Whether the latest save of `path` failed; false when it succeeded or none was made.
    public static func lastSaveFailed(_ path: String) -> Bool {
        outcomes.withLock { $0[path] == false }
    }
}
