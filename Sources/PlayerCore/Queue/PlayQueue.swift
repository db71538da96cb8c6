/// The play queue as a value: entries in their natural order, the current entry, repeat mode and
/// shuffle. Mutating methods return what happened, and the player actor turns that into effects.
///
/// Conventions the whole type keeps:
/// - A queue with entries has a current entry, unless it was created with `currentIndex: nil`;
///   from "nothing current", Next (and a natural end) starts at the first entry of the play order.
/// - Out-of-range indices are clamped into the queue; unknown ids are ignored (see each method).
/// - Every operation is O(n) or better; lookups by id are O(1) through an index kept beside the
///   entries.
public struct PlayQueue: Sendable, Codable, Equatable {
    /// The entries in their natural (unshuffled) order.
    public internal(set) var entries: [QueueEntry]
    /// The index in `entries` of the current entry; `nil` means nothing is current.
    public internal(set) var currentIndex: Int?
    /// What happens at the end of a track and at the end of the queue. Changing it keeps the
    /// current entry and the shuffle plan.
    public var repeatMode: RepeatMode = .none

    /// The id the next added entry gets; only grows, so ids are never reused.
    var nextID: UInt64
    /// The source of every shuffle decision; stored so a saved queue shuffles on identically.
    var generator: SeededGenerator
    /// The play order while shuffled, `nil` in natural order.
    var shuffleOrder: ShuffleOrder?
    /// Position of each entry id in `entries`, derived from `entries` and never encoded.
    var indexByID: [UInt64: Int] = [:]

    /// Creates a queue.
    ///
    /// - Parameters:
    ///   - entries: the entries in natural order. Later entries whose id repeats an earlier one
    ///     are dropped, since ids must identify entries. New ids continue above the largest id,
    ///     which must therefore be below `UInt64.max`.
    ///   - currentIndex: the current entry; clamped into `entries`, ignored when there are none.
    ///   - seed: seeds the shuffle generator; pass a fixed value for a reproducible order.
    public init(entries: [QueueEntry] = [], currentIndex: Int? = nil, seed: UInt64 = .random(in: .min ... .max)) {
        var seen = Set<UInt64>()
        let unique = entries.filter { seen.insert($0.id).inserted }
        self.entries = unique
        self.currentIndex = currentIndex.flatMap { Self.clamp($0, count: unique.count) }
        nextID = (self.entries.map(\.id).max() ?? 0) + 1
        generator = SeededGenerator(seed: seed)
        reindex(from: 0)
    }

    /// The current entry, if any.
    public var current: QueueEntry? { currentIndex.map { entries[$0] } }

    /// Whether the queue plays in shuffled order; change it with `setShuffle(_:)`.
    public var isShuffled: Bool { shuffleOrder != nil }

    /// The entry with this id, if it is queued. O(1).
    public func entry(id: UInt64) -> QueueEntry? {
        index(of: id).map { entries[$0] }
    }

    /// The index in `entries` of the entry with this id, if it is queued. O(1).
    public func index(of id: UInt64) -> Int? {
        indexByID[id]
    }

    /// `index` moved into `0..<count`, or `nil` when there is nothing to point at.
    static func clamp(_ index: Int, count: Int) -> Int? {
        count == 0 ? nil : min(max(index, 0), count - 1)
    }

    /// Refreshes `indexByID` for the entries from `start` on, after they moved.
    mutating func reindex(from start: Int) {
        for index in start..<entries.count {
            indexByID[entries[index].id] = index
        }
    }

    /// Hands out the next unused id.
    mutating func makeEntries(_ uris: [String]) -> [QueueEntry] {
        uris.map { uri in
            defer { nextID += 1 }
            return QueueEntry(id: nextID, uri: uri)
        }
    }

    /// Points `currentIndex` at the shuffle order's current entry after the order changed.
    mutating func syncCurrentWithShuffle() {
        guard let shuffleOrder else { return }
        currentIndex = shuffleOrder.currentID.flatMap { indexByID[$0] }
    }
}
