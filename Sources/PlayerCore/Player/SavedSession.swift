/// What survives a restart: the queue (with its repeat mode, shuffle order and current entry),
/// the position in the current entry, volume and rate.
public struct SavedSession: Codable, Sendable, Equatable {
    /// Bumped when the format changes incompatibly.
    public var version = 1
    /// The queue.
    public var queue: PlayQueue
    /// Where in the current entry playback was.
    public var positionMicroseconds: Int64
    /// The volume.
    public var volume: Double
    /// The playback rate.
    public var rate: Double

    /// Creates a session snapshot.
    public init(queue: PlayQueue, positionMicroseconds: Int64, volume: Double, rate: Double) {
        self.queue = queue
        self.positionMicroseconds = positionMicroseconds
        self.volume = volume
        self.rate = rate
    }
}
