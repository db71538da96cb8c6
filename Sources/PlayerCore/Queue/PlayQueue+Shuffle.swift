extension PlayQueue {
    /// Turns shuffle on or off (MPRIS `Shuffle`); setting the current value changes nothing.
    ///
    /// On: a round starts with the current entry first and every other entry once, in random
    /// order. Off: the history is dropped and play continues in natural order from the current
    /// entry.
    public mutating func setShuffle(_ on: Bool) {
        guard on != isShuffled else { return }
        if on {
            reshuffleFromCurrent()
        } else {
            shuffleOrder = nil
        }
    }

    /// Starts a fresh shuffle round from the current entry, forgetting history.
    mutating func reshuffleFromCurrent() {
        let current = currentID
        let others = storage.ids.filter { $0 != current }
        shuffleOrder = ShuffleOrder(current: current, others: others, using: &generator)
    }

    /// The order of the round that follows a finished one: every entry once, in random order,
    /// and not starting with `justPlayed` when there is anything else to start with.
    ///
    /// Both `advance(_:)` and `upcoming()` call this, the latter on a copy of the generator, so
    /// what `upcoming()` predicts is exactly what happens.
    func nextRound(after justPlayed: UInt64, using generator: inout SeededGenerator) -> [UInt64] {
        var round = storage.ids
        guard round.count > 1 else { return round }
        // Park the just-played entry at the end, draw the opener from the others, then shuffle
        // the rest: uniform over all orders that do not open with the just-played entry.
        if let played = storage.index(of: justPlayed) { round.swapAt(played, round.count - 1) }
        round.swapAt(0, generator.next(below: round.count - 1))
        var rest = Array(round[1...])
        generator.shuffle(&rest)
        round.replaceSubrange(1..., with: rest)
        return round
    }
}
