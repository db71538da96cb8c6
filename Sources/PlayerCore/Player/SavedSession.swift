import Timekeeping

/// What survives a restart: the queue (with its repeat mode, shuffle order and current entry),
/// the position in the current entry, volume and rate.
public struct SavedSession: Codable, Sendable, Equatable {
    /// Bumped when the format changes incompatibly.
    public var version = 1
    /// The queue.
    public var queue: PlayQueue
    /// Where in the current entry playback was.
    public var position: Duration
    /// The volume.
    public var volume: Double
    /// The playback rate.
    public var rate: Double

    /// Creates a session snapshot.
    public init(queue: PlayQueue, position: Duration, volume: Double, rate: Double) {
        self.queue = queue
        self.position = position
        self.volume = volume
        self.rate = rate
    }
}

extension SavedSession {
    // session.json keeps its layout: the position is whole microseconds under its old key.
    private enum CodingKeys: String, CodingKey {
        case version, queue, positionMicroseconds, volume, rate
    }

    /// Reads a saved session.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        queue = try container.decode(PlayQueue.self, forKey: .queue)
        position = .microseconds(try container.decode(Int64.self, forKey: .positionMicroseconds))
        volume = try container.decode(Double.self, forKey: .volume)
        rate = try container.decode(Double.self, forKey: .rate)
    }

    /// Writes it in the same layout.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(queue, forKey: .queue)
        try container.encode(position.inMicroseconds, forKey: .positionMicroseconds)
        try container.encode(volume, forKey: .volume)
        try container.encode(rate, forKey: .rate)
    }
}
