import Testing
@testable import PlayerCore

/// Randomised operation sequences: whatever happened before, `upcoming()`, `canAdvance` and
/// `canRetreat` predict exactly what the moves then do, and the invariants hold after every step.
@Suite struct PlayQueuePropertyTests {
    /// How often each interesting situation came up, so the test proves it explored them.
    private struct Coverage {
        var wrapsWhileShuffled = 0
        var endsReached = 0
        var repeats = 0
        var refusedMoves = 0
        var removedCurrent = 0
    }

    @Test func predictionsAgreeWithMovesOverRandomOperationSequences() throws {
        var coverage = Coverage()
        for seed: UInt64 in 1...8 {
            var dice = SeededGenerator(seed: seed ^ 0xD1CE)
            var queue = makeQueue(1 + dice.next(below: 8), seed: seed)
            for step in 0..<500 {
                try perform(dice.next(below: 20), on: &queue, dice: &dice, coverage: &coverage)
                queue.checkInvariants()
                #expect((queue.current == nil) == queue.entries.isEmpty, "seed \(seed) step \(step)")
            }
        }
        #expect(coverage.wrapsWhileShuffled > 0)
        #expect(coverage.endsReached > 0)
        #expect(coverage.repeats > 0)
        #expect(coverage.refusedMoves > 0)
        #expect(coverage.removedCurrent > 0)
    }

    private func perform(
        _ operation: Int, on queue: inout PlayQueue, dice: inout SeededGenerator, coverage: inout Coverage
    ) throws {
        switch operation {
        case 0..<6:
            let predicted = queue.upcoming()
            let before = queue.current
            let move = queue.advance(.trackEnded)
            switch move {
            case .moved(let entry, let wrapped):
                #expect(predicted == entry)
                #expect(queue.current == entry)
                if wrapped && queue.isShuffled { coverage.wrapsWhileShuffled += 1 }
            case .repeatedTrack(let entry):
                #expect(predicted == entry && entry == before && queue.current == before)
                coverage.repeats += 1
            case .reachedEnd:
                #expect(predicted == nil && queue.current == before)
                coverage.endsReached += 1
            case .unchanged:
                #expect(predicted == nil && queue.entries.isEmpty)
            }
        case 6..<9:
            let predicted = queue.canAdvance
            let move = queue.advance(.userNext)
            #expect(predicted == move.isMoved)
            #expect(move.isMoved || move == .unchanged, "Next never reports an end or a repeat")
            if !move.isMoved { coverage.refusedMoves += 1 }
        case 9..<11:
            let predicted = queue.canRetreat
            let move = queue.retreat()
            #expect(predicted == move.isMoved)
            if move.isMoved { #expect(queue.current == move.movedEntry) }
        case 11:
            // Keep queues small so ends and round boundaries come up often.
            if queue.entries.count < 15 { queue.append(trackURIs(dice.next(below: 4))) }
        case 12:
            let anchor = randomID(in: queue, dice: &dice)
            let makeCurrent = dice.next(below: 2) == 0
            let added = queue.insert(trackURIs(1 + dice.next(below: 2)), after: anchor, makeCurrent: makeCurrent)
            if makeCurrent, let first = added.first { #expect(queue.current == first) }
        case 13:
            if let id = randomID(in: queue, dice: &dice) { _ = queue.remove(id: id) }
        case 14:
            if let current = queue.current, queue.entries.count > 1 {
                let upcoming = queue.upcoming()
                guard case .removed(wasCurrent: true) = queue.remove(id: current.id) else {
                    Issue.record("removing the current entry must say so")
                    return
                }
                coverage.removedCurrent += 1
                // Natural order, or a plan ahead: what was coming next is what takes over.
                if let upcoming, upcoming != current, queue.repeatMode == .none {
                    #expect(queue.current == upcoming)
                }
            }
        case 15:
            if let id = randomID(in: queue, dice: &dice) {
                let known = queue.entry(id: id) != nil
                let before = queue.current
                let jumped = queue.jump(to: id)
                #expect(jumped == known)
                #expect(queue.current == (known ? queue.entry(id: id) : before))
            }
        case 16:
            queue.setShuffle(!queue.isShuffled)
        case 17:
            queue.repeatMode = RepeatMode.allCases[dice.next(below: 3)]
        case 18:
            if dice.next(below: 4) == 0 {
                queue.replaceAll(with: trackURIs(dice.next(below: 6)), startAt: dice.next(below: 6) - 1)
            }
        default:
            let restored = try roundTrip(queue)
            #expect(restored == queue)
            queue = restored
        }
    }

    /// A queued id, `nil` (meaning "the start" for insert), or now and then an unknown id.
    private func randomID(in queue: PlayQueue, dice: inout SeededGenerator) -> UInt64? {
        let pick = dice.next(below: queue.entries.count + 2)
        if pick < queue.entries.count { return queue.entries[pick].id }
        return pick == queue.entries.count ? nil : 999_999
    }
}
