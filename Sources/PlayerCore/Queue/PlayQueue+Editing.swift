extension PlayQueue {
    /// Replaces every entry with new ones for `uris` and makes the one at `index` current.
    ///
    /// `index` is clamped into the new entries. While shuffled, a new round starts with that entry
    /// first and the history is cleared (none of it is queued any more). Ids are fresh: no old id
    /// comes back.
    /// - Returns: the new entries.
    @discardableResult
    public mutating func replaceAll(with uris: [String], startAt index: Int = 0) -> [QueueEntry] {
        let added = makeEntries(uris)
        storage = EntrySequence(added)
        currentID = Self.clamp(index, count: added.count).map { added[$0].id }
        if isShuffled { reshuffleFromCurrent() }
        return added
    }

    /// Adds entries for `uris` at the end of the natural order; while shuffled, they are spread at
    /// random over the part of the round not yet played.
    ///
    /// If nothing was current, the first added entry becomes current.
    /// - Returns: the new entries.
    @discardableResult
    public mutating func append(_ uris: [String]) -> [QueueEntry] {
        addEntries(uris, at: storage.count, makeCurrent: false)
    }

    /// Inserts entries for `uris` after the entry `id` in the natural order (MPRIS `AddTrack`).
    ///
    /// While shuffled, the new entries are spread at random over the part of the round not yet
    /// played, except that one made current plays now and Next continues with the plan.
    /// - Parameters:
    ///   - id: the entry to insert after; `nil` inserts at the start. An id that is not queued
    ///     inserts nothing.
    ///   - makeCurrent: make the first new entry current. It also becomes current when nothing
    ///     was current, as with `append(_:)`.
    /// - Returns: the new entries; empty when `id` is not queued.
    @discardableResult
    public mutating func insert(_ uris: [String], after id: UInt64?, makeCurrent: Bool) -> [QueueEntry] {
        let position: Int
        if let id {
            guard let index = index(of: id) else { return [] }
            position = index + 1
        } else {
            position = 0
        }
        return addEntries(uris, at: position, makeCurrent: makeCurrent)
    }

    /// Removes the entry `id` (MPRIS `RemoveTrack`).
    ///
    /// If it was current, the entry that would have played after it becomes current (in the play
    /// order, without wrapping round); at the end of the order, the entry played before it does;
    /// nothing is current only when the queue is empty. While shuffled, the entry also leaves the
    /// history, so Previous skips it.
    public mutating func remove(id: UInt64) -> QueueRemoval {
        guard let index = storage.remove(id: id) else { return .notFound }
        let wasCurrent = id == currentID
        if shuffleOrder != nil {
            shuffleOrder?.remove(id)
            syncCurrentWithShuffle()
        } else if wasCurrent {
            // The entry that followed it now sits at its index; at the end, the one before it.
            currentID = Self.clamp(index, count: storage.count).map { storage[$0].id }
        }
        return .removed(wasCurrent: wasCurrent)
    }

    /// Makes the entry `id` current (MPRIS `GoTo`); returns false, changing nothing, if it is not
    /// queued.
    ///
    /// While shuffled, the entry is taken out of the rest of the plan (so it does not play twice
    /// in the round) and Next continues with the plan; jumping to an entry already played this
    /// round replays it.
    public mutating func jump(to id: UInt64) -> Bool {
        guard storage.contains(id: id) else { return false }
        currentID = id
        shuffleOrder?.jump(to: id)
        return true
    }

    /// Inserts new entries at `position` in the natural order and files them into the shuffle plan.
    private mutating func addEntries(_ uris: [String], at position: Int, makeCurrent: Bool) -> [QueueEntry] {
        guard !uris.isEmpty else { return [] }
        let added = makeEntries(uris)
        storage.insert(contentsOf: added, at: position)
        let firstBecomesCurrent = makeCurrent || currentID == nil
        if firstBecomesCurrent { currentID = added[0].id }
        shuffleOrder?.add(added.map(\.id), firstBecomesCurrent: firstBecomesCurrent, using: &generator)
        return added
    }
}
