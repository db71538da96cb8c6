import Testing
@testable import PlayerCore

/// Insert, remove and jump while shuffled: the round still covers everything once, and history
/// and plan stay sensible.
@Suite struct PlayQueueShuffleEditingTests {
    /// Plays on with `.trackEnded` until the end, returning what was visited after the current one.
    private func playToEnd(_ queue: inout PlayQueue) -> [QueueEntry] {
        var played: [QueueEntry] = []
        while case .moved(let entry, _) = queue.advance(.trackEnded) { played.append(entry) }
        return played
    }

    @Test(arguments: 1...6)
    func appendedEntriesJoinTheUnplayedPartOfTheRound(seed: UInt64) {
        var queue = makeQueue(10, shuffled: true, seed: seed)
        var played = [queue.current!]
        for _ in 0..<3 { played.append(queue.advance(.trackEnded).movedEntry!) }
        let added = queue.append(trackURIs(5, prefix: "new"))
        #expect(queue.current == played.last, "appending does not change what plays")
        let rest = playToEnd(&queue)
        #expect(Set(added).isSubset(of: Set(rest)))
        #expect((played + rest).count == 15)
        #expect(Set(played + rest) == Set(queue.entries))
        queue.checkInvariants()
    }

    @Test func appendedEntriesArePlacedAfterTheReplayedHistory() {
        var queue = makeQueue(10, shuffled: true, seed: 5)
        var played = [queue.current!]
        for _ in 0..<4 { played.append(queue.advance(.trackEnded).movedEntry!) }
        _ = queue.retreat()
        _ = queue.retreat()
        queue.append(trackURIs(20, prefix: "new"))
        #expect(queue.advance(.userNext).movedEntry == played[3], "Next first replays what was played")
        #expect(queue.advance(.userNext).movedEntry == played[4])
    }

    @Test func insertMadeCurrentPlaysNowAndTheRestOfTheRoundStillPlays() {
        var queue = makeQueue(8, shuffled: true, seed: 11)
        var played = [queue.current!]
        played.append(queue.advance(.trackEnded).movedEntry!)
        let added = queue.insert(["now", "later"], after: nil, makeCurrent: true)
        #expect(queue.current == added[0])
        #expect(queue.retreat() == .moved(to: played[1], wrapped: false), "history is kept")
        _ = queue.advance(.userNext)
        let rest = playToEnd(&queue)
        #expect(Set(played + [added[0]] + rest) == Set(queue.entries))
        #expect((played + [added[0]] + rest).count == queue.entries.count)
    }

    @Test func removedEntryLeavesThePlanAndTheHistory() {
        var queue = makeQueue(10, shuffled: true, seed: 13)
        var played = [queue.current!]
        for _ in 0..<4 { played.append(queue.advance(.trackEnded).movedEntry!) }
        let planned = queue.upcoming()!
        #expect(queue.remove(id: played[2].id) == .removed(wasCurrent: false))
        #expect(queue.remove(id: planned.id) == .removed(wasCurrent: false))
        #expect(queue.current == played[4])
        let rest = playToEnd(&queue)
        #expect(!rest.contains(planned))
        #expect(Set(played + rest).subtracting([played[2]]) == Set(queue.entries))
        for _ in rest { _ = queue.retreat() }
        var back: [QueueEntry] = []
        while case .moved(let entry, _) = queue.retreat() { back.append(entry) }
        #expect(back == [played[3], played[1], played[0]])
        queue.checkInvariants()
    }

    @Test func removingTheCurrentEntryMakesThePlannedNextOneCurrent() {
        var queue = makeQueue(10, shuffled: true, seed: 17)
        _ = queue.advance(.trackEnded)
        let current = queue.current!
        let planned = queue.upcoming()!
        #expect(queue.remove(id: current.id) == .removed(wasCurrent: true))
        #expect(queue.current == planned)
        queue.checkInvariants()
    }

    @Test func removingTheCurrentEntryAtTheEndOfTheRoundFallsBackToTheOnePlayedBefore() {
        var queue = makeQueue(5, repeatMode: .playlist, shuffled: true, seed: 19)
        var played = [queue.current!]
        for _ in 0..<4 { played.append(queue.advance(.trackEnded).movedEntry!) }
        #expect(queue.remove(id: played[4].id) == .removed(wasCurrent: true))
        #expect(queue.current == played[3])
        queue.checkInvariants()
    }

    @Test func removingTheCurrentEntryAfterStepsBackMakesTheReplayedNextOneCurrent() {
        var queue = makeQueue(6, shuffled: true, seed: 23)
        var played = [queue.current!]
        for _ in 0..<3 { played.append(queue.advance(.trackEnded).movedEntry!) }
        _ = queue.retreat()
        _ = queue.retreat()
        #expect(queue.remove(id: played[1].id) == .removed(wasCurrent: true))
        #expect(queue.current == played[2])
        #expect(queue.retreat() == .moved(to: played[0], wrapped: false))
    }

    @Test func jumpToAPlannedEntryTakesItOutOfTheRestOfTheRound() {
        var queue = makeQueue(12, shuffled: true, seed: 29)
        let first = queue.current!
        let target = queue.entries.first { $0 != first && $0 != queue.upcoming() }!
        let jumped = queue.jump(to: target.id)
        #expect(jumped)
        #expect(queue.current == target)
        let rest = playToEnd(&queue)
        #expect(rest.count == 10)
        #expect(Set([first, target] + rest) == Set(queue.entries))
        #expect(queue.retreat().isMoved)
    }

    @Test func jumpToAPlayedEntryReplaysItAndKeepsThePlan() {
        var queue = makeQueue(8, shuffled: true, seed: 31)
        var played = [queue.current!]
        for _ in 0..<3 { played.append(queue.advance(.trackEnded).movedEntry!) }
        let planned = queue.upcoming()
        _ = queue.jump(to: played[0].id)
        #expect(queue.current == played[0])
        #expect(queue.upcoming() == planned)
        #expect(queue.retreat() == .moved(to: played[3], wrapped: false), "history shows the order played")
        #expect(playToEnd(&queue).count == 5, "the round continues: 4 unplayed after replaying played[3], played[0]")
    }

    @Test func jumpToTheCurrentEntryChangesNothing() {
        var queue = makeQueue(8, shuffled: true, seed: 37)
        _ = queue.advance(.trackEnded)
        let before = queue
        let jumped = queue.jump(to: queue.current!.id)
        #expect(jumped)
        #expect(queue == before)
    }

    @Test func jumpAfterStepsBackIntoTheLastRoundKeepsTheEntryInTheCurrentRound() {
        var queue = makeQueue(4, repeatMode: .playlist, shuffled: true, seed: 41)
        for _ in 0..<5 { _ = queue.advance(.trackEnded) }  // second entry of round two
        _ = queue.retreat()
        _ = queue.retreat()  // last round's last entry
        let unplayed = queue.entries.first { entry in
            var probe = queue
            return !(0..<3).contains { _ in probe.advance(.userNext).movedEntry == entry }
        }!
        _ = queue.jump(to: unplayed.id)
        queue.checkInvariants()
        #expect(queue.current == unplayed)
    }
}
