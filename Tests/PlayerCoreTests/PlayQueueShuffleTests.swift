import Testing
@testable import PlayerCore

/// Shuffle rounds, history, repeat modes while shuffled, and switching shuffle on and off.
@Suite struct PlayQueueShuffleTests {
    /// Plays with `.trackEnded` until the end of the round, returning the entries visited
    /// (the current one first) and the moves' wrap flags.
    private func playRound(_ queue: inout PlayQueue) -> (played: [QueueEntry], wraps: [Bool]) {
        var played = [queue.current].compactMap(\.self)
        var wraps: [Bool] = []
        for _ in 1..<queue.entries.count {
            guard case .moved(let entry, let wrapped) = queue.advance(.trackEnded) else { break }
            played.append(entry)
            wraps.append(wrapped)
        }
        return (played, wraps)
    }

    @Test(arguments: [1, 2, 7, 50])
    func everyRoundVisitsEveryEntryExactlyOnce(size: Int) {
        for seed: UInt64 in 1...8 {
            var queue = makeQueue(size, current: Int(seed) % size, repeatMode: .playlist, seed: seed)
            let startedAt = queue.current
            queue.setShuffle(true)
            #expect(queue.current == startedAt, "switching shuffle on keeps the current entry first")
            var lastOfRound = queue.current
            for round in 0..<3 {
                if round > 0 {
                    // The round's first move is the wrap into a new permutation.
                    guard case .moved(let first, let wrapped) = queue.advance(.trackEnded) else {
                        Issue.record("repeat playlist must start a new round")
                        return
                    }
                    #expect(wrapped)
                    if size > 1 { #expect(first != lastOfRound, "a new round does not open with the last entry") }
                }
                let (played, wraps) = playRound(&queue)
                #expect(played.count == size, "seed \(seed) round \(round)")
                #expect(Set(played) == Set(queue.entries), "seed \(seed) round \(round)")
                #expect(!wraps.contains(true), "only a round's first move wraps")
                lastOfRound = played.last
            }
        }
    }

    @Test(arguments: [RepeatMode.none, .track])
    func endOfRoundWithoutRepeatPlaylistStops(repeatMode: RepeatMode) {
        var queue = makeQueue(6, current: 3, repeatMode: .none, shuffled: true, seed: 4)
        _ = playRound(&queue)
        queue.repeatMode = repeatMode
        let last = queue.current
        #expect(!queue.canAdvance)
        #expect(queue.advance(.userNext) == .unchanged)
        if repeatMode == .track {
            #expect(queue.advance(.trackEnded) == .repeatedTrack(last!))
        } else {
            #expect(queue.upcoming() == nil)
            #expect(queue.advance(.trackEnded) == .reachedEnd)
        }
        #expect(queue.current == last)
    }

    @Test func shuffledOrderIsNotNaturalAndDependsOnTheSeed() {
        var orders: Set<[UInt64]> = []
        for seed: UInt64 in 1...4 {
            var queue = makeQueue(20, shuffled: true, seed: seed)
            let order = playRound(&queue).played.map(\.id)
            #expect(order != queue.entries.map(\.id))
            orders.insert(order)
        }
        #expect(orders.count == 4)
    }

    @Test func sameSeedGivesTheSameOrder() {
        var first = makeQueue(30, shuffled: true, seed: 77)
        var second = makeQueue(30, shuffled: true, seed: 77)
        #expect(playRound(&first).played == playRound(&second).played)
    }

    @Test func previousWalksBackThroughTheOrderActuallyPlayed() {
        var queue = makeQueue(12, current: 5, repeatMode: .playlist, shuffled: true, seed: 9)
        var played = [queue.current!]
        for _ in 0..<6 { played.append(queue.advance(.trackEnded).movedEntry!) }
        for expected in played.dropLast().reversed() {
            #expect(queue.canRetreat)
            #expect(queue.retreat() == .moved(to: expected, wrapped: false))
        }
        // Back at the entry shuffle started from: no history to go to, even under repeat playlist.
        #expect(!queue.canRetreat)
        #expect(queue.retreat() == .unchanged)
        #expect(queue.current == played[0])
        // Next replays the same order rather than drawing a new one.
        for expected in played.dropFirst() {
            #expect(queue.advance(.userNext) == .moved(to: expected, wrapped: false))
        }
    }

    @Test func previousCrossesBackIntoTheLastRound() {
        var queue = makeQueue(5, repeatMode: .playlist, shuffled: true, seed: 3)
        let lastOfRound = playRound(&queue).played.last!
        let opener = queue.advance(.trackEnded)
        #expect(opener.isMoved)
        #expect(queue.retreat() == .moved(to: lastOfRound, wrapped: true))
        #expect(queue.advance(.userNext) == opener)
    }

    @Test func historyReachesBackOneRoundOnly() {
        var queue = makeQueue(4, repeatMode: .playlist, shuffled: true, seed: 12)
        for _ in 0..<(4 * 3 - 1) { _ = queue.advance(.trackEnded) }  // end of the third round
        var steps = 0
        while queue.retreat().isMoved { steps += 1 }
        #expect(steps == 4 * 2 - 1, "back through this round and the previous one")
    }

    @Test(arguments: [RepeatMode.none, .track, .playlist])
    func switchingShuffleOffContinuesInNaturalOrderFromTheCurrentEntry(repeatMode: RepeatMode) {
        var queue = makeQueue(10, current: 0, repeatMode: repeatMode, shuffled: true, seed: 21)
        for _ in 0..<4 { _ = queue.advance(.userNext) }
        let current = queue.current!
        queue.setShuffle(false)
        #expect(!queue.isShuffled)
        #expect(queue.current == current)
        let index = queue.currentIndex!
        let next = queue.advance(.userNext)
        if index + 1 < queue.entries.count {
            #expect(next == .moved(to: queue.entries[index + 1], wrapped: false))
        } else {
            #expect(next == (repeatMode == .playlist ? .moved(to: queue.entries[0], wrapped: true) : .unchanged))
        }
        if index > 0 {
            _ = queue.jump(to: current.id)
            #expect(queue.retreat() == .moved(to: queue.entries[index - 1], wrapped: false))
        }
    }

    @Test func switchingShuffleOnTwiceKeepsThePlan() {
        var queue = makeQueue(15, current: 4, shuffled: true, seed: 8)
        _ = queue.advance(.userNext)
        let before = queue
        queue.setShuffle(true)
        #expect(queue == before)
    }

    @Test func switchingShuffleBackOnStartsAFreshRoundFromTheCurrentEntry() {
        var queue = makeQueue(9, current: 2, shuffled: true, seed: 6)
        _ = queue.advance(.userNext)
        _ = queue.advance(.userNext)
        queue.setShuffle(false)
        queue.setShuffle(true)
        #expect(!queue.canRetreat, "history belongs to the old round")
        let played = playRound(&queue).played
        #expect(Set(played) == Set(queue.entries))
    }

    @Test func repeatTrackWhileShuffledRepeatsAtNaturalEndAndMovesOnNext() {
        var queue = makeQueue(6, current: 1, repeatMode: .track, shuffled: true, seed: 2)
        let current = queue.current!
        #expect(queue.upcoming() == current)
        #expect(queue.advance(.trackEnded) == .repeatedTrack(current))
        let next = queue.advance(.userNext)
        #expect(next.isMoved && next.movedEntry != current)
        #expect(queue.retreat() == .moved(to: current, wrapped: false))
    }

    @Test func newRoundStartsWithTheCurrentEntryOnlyWhenItIsTheOnlyOne() {
        var queue = makeQueue(1, repeatMode: .playlist, shuffled: true, seed: 1)
        let only = queue.current!
        #expect(queue.upcoming() == only)
        #expect(queue.advance(.trackEnded) == .moved(to: only, wrapped: true))
    }

    @Test func twoEntriesUnderRepeatPlaylistAlternate() {
        for seed: UInt64 in 1...10 {
            var queue = makeQueue(2, repeatMode: .playlist, shuffled: true, seed: seed)
            var previous = queue.current!
            for _ in 0..<10 {
                let next = queue.advance(.trackEnded).movedEntry!
                #expect(next != previous)
                previous = next
            }
        }
    }
}
