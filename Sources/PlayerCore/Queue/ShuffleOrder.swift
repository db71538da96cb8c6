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
struct ShuffleOrder: Sendable, Codable, Equatable {
    /// Play order as entry ids. An id appears twice only if a jump replayed it.
    private(set) var ids: [UInt64]
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
            ids = [current] + rest
            position = 0
        } else {
            ids = rest
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
        var kept: [UInt64] = []
        kept.reserveCapacity(ids.count)
        var keptBeforePosition = 0
        var keptThroughFrontier = 0
        var keptBeforeRoundStart = 0
        for (index, element) in ids.enumerated() where element != id {
            if index < position { keptBeforePosition += 1 }
            if index <= frontier { keptThroughFrontier += 1 }
            if index < roundStart { keptBeforeRoundStart += 1 }
            kept.append(element)
        }
        let currentRemoved = currentID == id
        ids = kept
        roundStart = keptBeforeRoundStart
        frontier = keptThroughFrontier - 1
        if position >= 0 {
            // A kept current keeps its place; a removed one is succeeded by what followed it.
            position = keptBeforePosition
            if currentRemoved && position == ids.count { position -= 1 }
            frontier = max(frontier, position)
        }
    }

    /// Whether a decoded order keeps the invariants for these entries and this current entry, so
    /// a damaged saved state can be detected instead of trapping later.
    func isConsistent(withEntries entries: EntrySequence, currentID expected: UInt64?) -> Bool {
        guard (-1..<ids.count).contains(position), (position..<ids.count).contains(frontier),
            (0...frontier + 1).contains(roundStart), currentID == expected,
            ids.allSatisfy({ entries.contains(id: $0) })
        else { return false }
        return Set(ids[roundStart...]).count == entries.count
    }

    /// Removes `id` from the part of the timeline after the current entry.
    private mutating func removeUpcoming(_ id: UInt64) {
        var index = ids.count - 1
        while index > position {
            if ids[index] == id {
                ids.remove(at: index)
                if index <= frontier { frontier -= 1 }
                if index < roundStart { roundStart -= 1 }
            }
            index -= 1
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

    /// Merges `newIDs` into the unplayed tail so that every interleaving is equally likely while
    /// the tail keeps its planned relative order (what the player already pre-loaded stays likely).
    private mutating func scatterIntoUnplayed(_ newIDs: [UInt64], using generator: inout SeededGenerator) {
        guard !newIDs.isEmpty else { return }
        var incoming = newIDs
        generator.shuffle(&incoming)
        let tailStart = frontier + 1
        let tail = ids[tailStart...]
        var merged: [UInt64] = []
        merged.reserveCapacity(tail.count + incoming.count)
        var tailIndex = tail.startIndex
        var incomingIndex = 0
        while tailIndex < tail.endIndex && incomingIndex < incoming.count {
            let incomingLeft = incoming.count - incomingIndex
            let tailLeft = tail.endIndex - tailIndex
            if generator.next(below: incomingLeft + tailLeft) < incomingLeft {
                merged.append(incoming[incomingIndex])
                incomingIndex += 1
            } else {
                merged.append(tail[tailIndex])
                tailIndex += 1
            }
        }
        merged.append(contentsOf: incoming[incomingIndex...])
        merged.append(contentsOf: tail[tailIndex...])
        ids.replaceSubrange(tailStart..., with: merged)
    }
}
