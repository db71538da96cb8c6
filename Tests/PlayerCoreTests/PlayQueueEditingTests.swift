import Testing
@testable import PlayerCore

/// Append, insert, remove, jump and replace in natural order, and the id counter.
@Suite struct PlayQueueEditingTests {
    @Test func appendAddsAtTheEndAndKeepsTheCurrentEntry() {
        var queue = makeQueue(3, current: 1)
        let current = queue.current
        let added = queue.append(["x", "y"])
        #expect(queue.entries.suffix(2) == added)
        #expect(added.map(\.uri) == ["x", "y"])
        #expect(queue.current == current)
        queue.checkInvariants()
    }

    @Test func appendMakesTheFirstNewEntryCurrentWhenNothingWas() {
        var queue = PlayQueue(seed: 1)
        let added = queue.append(["a", "b"])
        #expect(queue.current == added[0])
        var idle = PlayQueue(entries: [QueueEntry(id: 1, uri: "old")], currentIndex: nil, seed: 1)
        let more = idle.append(["new"])
        #expect(idle.current == more[0])
    }

    @Test func appendingNothingChangesNothing() {
        var queue = makeQueue(3)
        let before = queue
        #expect(queue.append([]).isEmpty)
        #expect(queue == before)
    }

    @Test func insertAfterAnEntryPlacesTheNewOnesRightAfterIt() {
        var queue = makeQueue(4, current: 3)
        let anchor = queue.entries[1]
        let added = queue.insert(["x", "y"], after: anchor.id, makeCurrent: false)
        #expect(Array(queue.entries[2...3]) == added)
        #expect(queue.currentIndex == 5, "the current entry moved along")
        #expect(queue.current?.uri == trackURIs(4)[3])
        queue.checkInvariants()
    }

    @Test func insertAfterNilPlacesTheNewOnesAtTheStart() {
        var queue = makeQueue(3, current: 0)
        let added = queue.insert(["x"], after: nil, makeCurrent: false)
        #expect(queue.entries.first == added[0])
        #expect(queue.currentIndex == 1)
    }

    @Test func insertAfterTheLastEntryAppends() {
        var queue = makeQueue(3, current: 0)
        let added = queue.insert(["x"], after: queue.entries[2].id, makeCurrent: false)
        #expect(queue.entries.last == added[0])
        #expect(queue.currentIndex == 0)
    }

    @Test func insertBehindTheCurrentEntryLeavesItsIndex() {
        var queue = makeQueue(4, current: 1)
        queue.insert(["x"], after: queue.entries[2].id, makeCurrent: false)
        #expect(queue.currentIndex == 1)
    }

    @Test func insertCanMakeTheFirstNewEntryCurrent() {
        var queue = makeQueue(4, current: 0)
        let added = queue.insert(["x", "y"], after: queue.entries[2].id, makeCurrent: true)
        #expect(queue.current == added[0])
        #expect(queue.advance(.userNext) == .moved(to: added[1], wrapped: false))
    }

    @Test func insertAfterAnUnknownIdInsertsNothing() {
        var queue = makeQueue(3)
        let before = queue
        #expect(queue.insert(["x"], after: 999, makeCurrent: true).isEmpty)
        #expect(queue == before)
    }

    @Test func removingAnEntryBeforeTheCurrentOneKeepsTheCurrentEntry() {
        var queue = makeQueue(5, current: 3)
        let current = queue.current
        #expect(queue.remove(id: queue.entries[1].id) == .removed(wasCurrent: false))
        #expect(queue.current == current)
        #expect(queue.currentIndex == 2)
        queue.checkInvariants()
    }

    @Test func removingTheCurrentEntryMakesTheFollowingOneCurrent() {
        var queue = makeQueue(5, current: 2)
        let following = queue.entries[3]
        #expect(queue.remove(id: queue.entries[2].id) == .removed(wasCurrent: true))
        #expect(queue.current == following)
    }

    @Test(arguments: RepeatMode.allCases)
    func removingTheLastEntryWhileCurrentFallsBackToTheOneBefore(repeatMode: RepeatMode) {
        var queue = makeQueue(3, current: 2, repeatMode: repeatMode)
        let before = queue.entries[1]
        #expect(queue.remove(id: queue.entries[2].id) == .removed(wasCurrent: true))
        #expect(queue.current == before, "no wrap to the first entry, whatever the repeat mode")
    }

    @Test func removingTheOnlyEntryLeavesNothingCurrent() {
        var queue = makeQueue(1)
        #expect(queue.remove(id: queue.entries[0].id) == .removed(wasCurrent: true))
        #expect(queue.current == nil)
        #expect(queue.currentIndex == nil)
    }

    @Test func removingAnUnknownIdReportsNotFound() {
        var queue = makeQueue(3)
        let before = queue
        #expect(queue.remove(id: 999) == .notFound)
        #expect(queue == before)
    }

    @Test func jumpMakesAKnownEntryCurrentAndNavigationContinuesFromIt() {
        var queue = makeQueue(5, current: 0)
        let target = queue.entries[3]
        let jumped = queue.jump(to: target.id)
        #expect(jumped)
        #expect(queue.current == target)
        #expect(queue.advance(.userNext) == .moved(to: queue.entries[4], wrapped: false))
    }

    @Test func jumpToAnUnknownIdChangesNothing() {
        var queue = makeQueue(5, current: 2)
        let before = queue
        let jumped = queue.jump(to: 999)
        #expect(!jumped)
        #expect(queue == before)
    }

    @Test(arguments: [false, true])
    func idsAreNeverReusedAcrossEditsAndReplacement(shuffled: Bool) {
        var queue = makeQueue(3, shuffled: shuffled)
        var issued = Set(queue.entries.map(\.id))
        func record(_ entries: [QueueEntry]) {
            for entry in entries { #expect(issued.insert(entry.id).inserted, "id \(entry.id) reused") }
        }
        for entry in queue.entries { _ = queue.remove(id: entry.id) }
        record(queue.append(["a", "b"]))
        _ = queue.remove(id: queue.entries[1].id)
        record(queue.insert(["c"], after: nil, makeCurrent: false))
        record(queue.replaceAll(with: ["d", "e"]))
        record(queue.replaceAll(with: []))
        record(queue.append(["f"]))
        queue.checkInvariants()
    }

    @Test(arguments: [false, true])
    func replaceAllStartsAtTheGivenEntry(shuffled: Bool) {
        var queue = makeQueue(3, shuffled: shuffled, seed: 4)
        _ = queue.advance(.userNext)
        let added = queue.replaceAll(with: trackURIs(6, prefix: "new"), startAt: 4)
        #expect(queue.current == added[4])
        #expect(queue.entries == added)
        #expect(queue.isShuffled == shuffled)
        if shuffled { #expect(!queue.canRetreat, "history of the old queue is gone") }
        queue.checkInvariants()
    }
}
