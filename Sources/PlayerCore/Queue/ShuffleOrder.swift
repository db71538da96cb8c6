/// The shuffled play order as entry ids: history, the current entry, then the plan for the rest.
///
/// `ids` reads as a timeline: the previous round's history (kept so Previous can step back across a
/// round boundary), this round's played part up to `frontier`, then this round's not-yet-played
/// part in the order it will play. `position` walks this timeline; Previous steps back without
/// changing the plan, so Next replays exactly what was played. Older rounds are dropped when a new
/// one starts, which bounds the history to about two rounds.
///
/// Invariants the queue relies on: `-1 ≤ position ≤ frontier < ids.count` (or `frontier == -1`),
/// `roundStart ≤ frontier + 1`, and every queued id occurs in `ids[roundStart...]`.
///
/// Saved sessions hold it as `ids` (an array), `position`, `frontier` and `roundStart`; in memory
/// `ids` is a ``ShuffleTimeline``, so edits of a 100 000-entry plan touch about √n ids, not all.
struct ShuffleOrder: Sendable, Equatable {
    /// Play order as entry ids. An id appears twice only if a jump replayed it.
    private(set) var ids: ShuffleTimeline
    /// Index of the current entry in `ids`; -1 means nothing is current yet.
    private(set) var position: Int
    /// Index of the furthest entry reached; `ids[(frontier + 1)...]` has not been played.
    private(set) var frontier: Int
    /// Where the current round starts in `ids`; earlier ids are the previous round's history.
    private(set) var roundStart: Int

    /// Starts a round with `current` first (when there is one) and `others` in random order.
    init(current: UInt64?, others: [UInt64], using generator: inout SeededGenerator) {
        var rest = others
        generator.shuffle(&rest)
        if let current {
            ids = ShuffleTimeline([current] + rest)
            position = 0
        } else {
            ids = ShuffleTimeline(rest)
            position = -1
        }
        frontier = position
        roundStart = 0
    }

    /// The current entry's id, if any.
    var currentID: UInt64? { position >= 0 ? ids[position] : nil }
    /// The id Next would move to within the planned order, if any.
    var nextID: UInt64? { position + 1 < ids.count ? ids[position + 1] : nil }
    /// The id Previous would move to, if any history remains.
    var previousID: UInt64? { position > 0 ? ids[position - 1] : nil }

    /// Moves to `nextID`; returns whether that crossed into a new round (a wrap).
    mutating func stepForward() -> Bool {
        precondition(nextID != nil, "no planned entry to step to")
        position += 1
        frontier = max(frontier, position)
        return position == roundStart && position > 0
    }

    /// Moves to `previousID`; returns whether that crossed back into the previous round.
    mutating func stepBack() -> Bool {
        precondition(previousID != nil, "no history to step back to")
        let crossed = position == roundStart
        position -= 1
        return crossed
    }

    /// Appends a new round after the current one, forgetting the round before the current one.
    ///
    /// Called at the end of the plan, where `position` is in the round that becomes history.
    mutating func startRound(_ round: [UInt64]) {
        let forgotten = min(roundStart, max(position, 0))
        ids.removeFirst(forgotten)
        position -= forgotten
        frontier -= forgotten
        roundStart = ids.count
        ids.append(contentsOf: round)
    }

    /// Makes `id` current now and keeps the rest of the plan, minus `id`, after it.
    ///
    /// A jump to an already played entry replays it, so it then appears twice in the history.
    mutating func jump(to id: UInt64) {
        guard currentID != id else { return }
        removeUpcoming(id)
        placeAsCurrent(id)
    }

    /// Adds new ids: the first becomes current at once if asked, the rest are spread at random
    /// over the not-yet-played part of the round.
    mutating func add(_ newIDs: [UInt64], firstBecomesCurrent: Bool, using generator: inout SeededGenerator) {
        guard let first = newIDs.first else { return }
        var scattered = newIDs[...]
        if firstBecomesCurrent {
            placeAsCurrent(first)
            scattered = scattered.dropFirst()
        }
        scatterIntoUnplayed(Array(scattered), using: &generator)
    }

    /// Removes every occurrence of `id`. If it was current, the entry planned after it becomes
    /// current, or the one played before it when nothing is planned, or nothing when `ids` empties.
    mutating func remove(_ id: UInt64) {
        let occurrences = ids.indices(of: id)
        guard !occurrences.isEmpty else { return }
        let currentRemoved = currentID == id
        // The kept ids before each mark are the ids before it less the removed ones there.
        let removedBeforePosition = occurrences.count { $0 < position }
        let removedThroughFrontier = occurrences.count { $0 <= frontier }
        let removedBeforeRoundStart = occurrences.count { $0 < roundStart }
        for index in occurrences.reversed() { ids.remove(at: index) }
        roundStart -= removedBeforeRoundStart
        frontier -= removedThroughFrontier
        if position >= 0 {
            // A kept current keeps its place; a removed one is succeeded by what followed it.
            position -= removedBeforePosition
            if currentRemoved && position == ids.count { position -= 1 }
            frontier = max(frontier, position)
        }
    }

    /// Whether a decoded order keeps the invariants for these entries and this current entry, so
    /// a damaged saved state can be detected instead of trapping later.
    func isConsistent(withEntries entries: EntrySequence, currentID expected: UInt64?) -> Bool {
        guard (-1..<ids.count).contains(position), (position..<ids.count).contains(frontier),
            (0...frontier + 1).contains(roundStart), currentID == expected,
            ids.array.allSatisfy({ entries.contains(id: $0) })
        else { return false }
        return Set(ids.array[roundStart...]).count == entries.count
    }

    /// Removes `id` from the part of the timeline after the current entry.
    private mutating func removeUpcoming(_ id: UInt64) {
        for index in ids.indices(of: id).reversed() where index > position {
            ids.remove(at: index)
            if index <= frontier { frontier -= 1 }
            if index < roundStart { roundStart -= 1 }
        }
    }

    /// Puts `id` right after the current entry and makes it current.
    private mutating func placeAsCurrent(_ id: UInt64) {
        let index = position + 1
        // Made current while Previous had stepped back into the last round: the current round now
        // starts here, so `id` (maybe taken out of this round's plan) still belongs to it.
        roundStart = min(roundStart, index)
        ids.insert(id, at: index)
        if frontier >= index { frontier += 1 }
        if roundStart > index { roundStart += 1 }
        position = index
        frontier = max(frontier, position)
    }

    /// Places `newIDs` into the unplayed tail, each at a uniformly drawn gap among the tail's
    /// ids and those placed before it: every interleaving is equally likely while the tail keeps
    /// its planned relative order (what the player already pre-loaded stays likely).
    private mutating func scatterIntoUnplayed(_ newIDs: [UInt64], using generator: inout SeededGenerator) {
        guard !newIDs.isEmpty else { return }
        var incoming = newIDs
        generator.shuffle(&incoming)
        let tailStart = frontier + 1
        for id in incoming {
            let gaps = ids.count - tailStart + 1
            ids.insert(id, at: tailStart + generator.next(below: gaps))
        }
    }
}

extension ShuffleOrder: Codable {
    private enum CodingKeys: String, CodingKey {
        case ids, position, frontier, roundStart
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ids = ShuffleTimeline(try container.decode([UInt64].self, forKey: .ids))
        position = try container.decode(Int.self, forKey: .position)
        frontier = try container.decode(Int.self, forKey: .frontier)
        roundStart = try container.decode(Int.self, forKey: .roundStart)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ids.array, forKey: .ids)
        try container.encode(position, forKey: .position)
        try container.encode(frontier, forKey: .frontier)
        try container.encode(roundStart, forKey: .roundStart)
    }
}
