/// One change linnet made to another MPRIS player, written down before it is made, so that a
/// linnet that ended without undoing it (`kill -9`, a crash) can undo it at its next start.
public struct FocusJournalEntry: Codable, Sendable, Hashable {
    /// What was changed.
    public enum Change: Codable, Sendable, Hashable {
        /// linnet paused the player.
        case paused
        /// linnet set the player's Volume from `original` to `applied`.
        case ducked(original: Double, applied: Double)
    }

    /// The player's well-known name, e.g. `org.mpris.MediaPlayer2.mpv`.
    public var name: String
    /// The unique connection name that owned `name` then: another process under the same name
    /// is another player, and its state is its own.
    public var owner: String
    /// What linnet changed.
    public var change: Change

    /// An entry for the player `name` owned by `owner`.
    public init(name: String, owner: String, change: Change) {
        self.name = name
        self.owner = owner
        self.change = change
    }
}

/// Where the focus coordinator keeps its journal. ``save(_:)`` replaces the whole journal
/// atomically and has finished writing when it returns: the coordinator changes a player only
/// after the entry saying so is saved.
public protocol FocusJournalStoring: Sendable {
    /// The entries saved by an earlier run; empty when there are none or the file is unreadable.
    func load() -> [FocusJournalEntry]
    /// Replaces the journal with `entries`.
    func save(_ entries: [FocusJournalEntry]) throws
}
