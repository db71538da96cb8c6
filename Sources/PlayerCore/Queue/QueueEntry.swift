/// One entry of the play queue: a URI with an id that stays the same while the entry is queued
/// (track ids on the bus are derived from it, so clients can address entries reliably).
public struct QueueEntry: Hashable, Sendable, Codable, Identifiable {
    /// Unique within one queue for its whole life, never reused.
    public let id: UInt64
    /// What to play: `file://…`, `http(s)://…`.
    public var uri: String

    /// Creates an entry.
    public init(id: UInt64, uri: String) {
        self.id = id
        self.uri = uri
    }
}

/// What happens at the end of a track and of the queue (MPRIS `LoopStatus`).
public enum RepeatMode: String, Sendable, Codable, CaseIterable {
    /// Play through the queue once, then stop.
    case none
    /// Repeat the current track.
    case track
    /// Loop the whole queue.
    case playlist
}
