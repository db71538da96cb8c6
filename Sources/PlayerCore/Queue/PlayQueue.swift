/// The play queue as a value: entries in their natural order, the current entry, repeat mode and
/// shuffle. Mutating methods return what happened, and the player actor turns that into effects.
///
/// Conventions the whole type keeps:
/// - A queue with entries has a current entry, unless it was created with `currentIndex: nil`;
///   from "nothing current", Next (and a natural end) starts at the first entry of the play order.
/// - Out-of-range indices are clamped into the queue; unknown ids are ignored (see each method).
/// - Editing (insert, remove, jump) and lookups by id or position touch one chunk of at most 256
///   entries ("O(chunk)") and, for edits, a table with a row per chunk (see ``EntrySequence``);
///   only whole-queue operations (replace, shuffle on, a new shuffle round, saving) walk every
///   entry. While shuffled, the plan is edited the same way, chunked (`ShuffleTimeline`).
public struct PlayQueue: Sendable, Codable, Equatable {
    /// The entries in natural order, indexed by id and position.
    var storage: EntrySequence
    /// The current entry's id; `nil` means nothing is current. Kept as an id, not a position, so
    /// that edits before it need not move it.
    var currentID: UInt64?
    /// What happens at the end of a track and at the end of the queue. Changing it keeps the
    /// current entry and the shuffle plan.
    public var repeatMode: RepeatMode = .none

    /// The id the next added entry gets; only grows, so ids are never reused.
    var nextID: UInt64
    /// The source of every shuffle decision; stored so a saved queue shuffles on identically.
    var generator: SeededGenerator
    /// The play order while shuffled, `nil` in natural order.
    var shuffleOrder: ShuffleOrder?

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
        storage = EntrySequence(unique)
        currentID = currentIndex.flatMap { Self.clamp($0, count: unique.count) }.map { unique[$0].id }
        nextID = (unique.map(\.id).max() ?? 0) + 1
        generator = SeededGenerator(seed: seed)
    }

    /// The entries in their natural (unshuffled) order. O(n): a copy of the whole queue; use
    /// ``count``, ``entry(at:)`` or ``entry(id:)`` where one entry will do.
    public var entries: [QueueEntry] { storage.array }

    /// The number of entries. O(1).
    public var count: Int { storage.count }

    /// The last entry in natural order, if any. O(1).
    public var last: QueueEntry? { storage.last }

    /// The index in ``entries`` of the current entry; `nil` means nothing is current. O(chunk).
    public var currentIndex: Int? { currentID.flatMap(storage.index(of:)) }

    /// The current entry, if any. O(chunk).
    public var current: QueueEntry? { currentID.flatMap(storage.entry(id:)) }

    /// Whether the queue plays in shuffled order; change it with `setShuffle(_:)`.
    public var isShuffled: Bool { shuffleOrder != nil }

    /// The entry with this id, if it is queued. O(chunk).
    public func entry(id: UInt64) -> QueueEntry? {
        storage.entry(id: id)
    }

    /// The entry at `index` in natural order; `index` must be in `0..<count`. O(log n).
    public func entry(at index: Int) -> QueueEntry {
        storage[index]
    }

    /// The index in ``entries`` of the entry with this id, if it is queued. O(chunk).
    public func index(of id: UInt64) -> Int? {
        storage.index(of: id)
    }

    /// Calls `body` with each entry in natural order, without copying the entries. O(n).
    public func forEachEntry(_ body: (QueueEntry) throws -> Void) rethrows {
        try storage.forEach(body)
    }

    /// Whether any entry satisfies `predicate`, in natural order; stops at the first. O(n) at
    /// worst, without copying the entries.
    public func contains(where predicate: (QueueEntry) throws -> Bool) rethrows -> Bool {
        try storage.contains(where: predicate)
    }

    /// Whether an entry with this id is queued. O(1).
    public func contains(id: UInt64) -> Bool {
        storage.contains(id: id)
    }

    /// `index` moved into `0..<count`, or `nil` when there is nothing to point at.
    static func clamp(_ index: Int, count: Int) -> Int? {
        count == 0 ? nil : min(max(index, 0), count - 1)
    }

    /// Hands out the next unused id.
    mutating func makeEntries(_ uris: [String]) -> [QueueEntry] {
        var entries: [QueueEntry] = []
        entries.reserveCapacity(uris.count)
        for uri in uris {
            entries.append(QueueEntry(id: nextID, uri: uri, sharingFolderOf: entries.last))
            nextID += 1
        }
        return entries
    }

    /// Makes the shuffle order's current entry current after the order changed.
    mutating func syncCurrentWithShuffle() {
        guard let shuffleOrder else { return }
        currentID = shuffleOrder.currentID.flatMap { storage.contains(id: $0) ? $0 : nil }
    }
}
