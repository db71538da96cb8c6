extension PlayQueue {
    /// Moves forward (MPRIS `Next`, or the end of a track), following the play order and repeat
    /// mode.
    ///
    /// - `.trackEnded` under `RepeatMode.track` repeats the current entry.
    /// - At the end of the order (the last entry, or the end of a shuffle round): under
    ///   `RepeatMode.playlist` wraps to the start (shuffled: a new round); otherwise `.reachedEnd`
    ///   for `.trackEnded` and `.unchanged` for `.userNext`.
    /// - With nothing current, moves to the first entry of the play order.
    public mutating func advance(_ reason: AdvanceReason) -> QueueMove {
        switch forwardStep(reason) {
        case .repeatCurrent(let entry):
            return .repeatedTrack(entry)
        case .natural(let index, let wrapped):
            let entry = storage[index]
            currentID = entry.id
            return .moved(to: entry, wrapped: wrapped)
        case .shuffled:
            let wrapped = shuffleOrder?.stepForward() ?? false
            syncCurrentWithShuffle()
            return current.map { .moved(to: $0, wrapped: wrapped) } ?? .unchanged
        case .newRound(let justPlayed):
            let round = nextRound(after: justPlayed, using: &generator)
            shuffleOrder?.startRound(round)
            let wrapped = shuffleOrder?.stepForward() ?? false
            syncCurrentWithShuffle()
            return current.map { .moved(to: $0, wrapped: wrapped) } ?? .unchanged
        case .none:
            return reason == .trackEnded && !storage.isEmpty ? .reachedEnd : .unchanged
        }
    }

    /// Moves back (MPRIS `Previous`).
    ///
    /// In natural order: to the entry before; at the first entry, wraps to the last under
    /// `RepeatMode.playlist`, otherwise `.unchanged`. Shuffled: back through the entries actually
    /// played, as far as the start of the previous round; at the start of the history
    /// `.unchanged`, whatever the repeat mode (there is no played order to wrap into).
    public mutating func retreat() -> QueueMove {
        if shuffleOrder != nil {
            guard shuffleOrder?.previousID != nil else { return .unchanged }
            let wrapped = shuffleOrder?.stepBack() ?? false
            syncCurrentWithShuffle()
            return current.map { .moved(to: $0, wrapped: wrapped) } ?? .unchanged
        }
        guard let index = currentIndex else { return .unchanged }
        if index > 0 {
            currentID = storage[index - 1].id
        } else if repeatMode == .playlist {
            currentID = storage.last?.id
        } else {
            return .unchanged
        }
        return current.map { .moved(to: $0, wrapped: index == 0) } ?? .unchanged
    }

    /// Whether `advance(.userNext)` would move (MPRIS `CanGoNext`).
    public var canAdvance: Bool {
        if case .none = forwardStep(.userNext) { return false }
        return true
    }

    /// Whether `retreat()` would move (MPRIS `CanGoPrevious`).
    public var canRetreat: Bool {
        if let shuffleOrder { return shuffleOrder.previousID != nil }
        guard let index = currentIndex else { return false }
        return index > 0 || repeatMode == .playlist
    }

    /// The entry `advance(.trackEnded)` would make current (or repeat), without changing the queue;
    /// `nil` when it would reach the end. The player pre-loads it for gapless playback.
    public func upcoming() -> QueueEntry? {
        switch forwardStep(.trackEnded) {
        case .repeatCurrent(let entry):
            return entry
        case .natural(let index, _):
            return storage[index]
        case .shuffled:
            return shuffleOrder?.nextID.flatMap(entry(id:))
        case .newRound(let justPlayed):
            var generator = generator
            return nextRound(after: justPlayed, using: &generator).first.flatMap(entry(id:))
        case .none:
            return nil
        }
    }

    /// Where a forward move goes, decided once for `advance(_:)`, `canAdvance` and `upcoming()`
    /// so they cannot disagree.
    private enum ForwardStep {
        case repeatCurrent(QueueEntry)
        case natural(index: Int, wrapped: Bool)
        /// The next id in the shuffle plan.
        case shuffled
        /// The shuffle round is over; a new one starts after `justPlayed`.
        case newRound(justPlayed: UInt64)
        case none
    }

    private func forwardStep(_ reason: AdvanceReason) -> ForwardStep {
        guard !storage.isEmpty else { return .none }
        if reason == .trackEnded, repeatMode == .track, let current {
            return .repeatCurrent(current)
        }
        if let shuffleOrder {
            if shuffleOrder.nextID != nil { return .shuffled }
            guard repeatMode == .playlist, let playing = shuffleOrder.currentID else { return .none }
            return .newRound(justPlayed: playing)
        }
        guard let index = currentIndex else { return .natural(index: 0, wrapped: false) }
        if index + 1 < storage.count { return .natural(index: index + 1, wrapped: false) }
        return repeatMode == .playlist ? .natural(index: 0, wrapped: true) : .none
    }
}
