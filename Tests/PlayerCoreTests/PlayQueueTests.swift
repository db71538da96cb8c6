import Testing
@testable import PlayerCore

// Shared fixtures for the PlayQueue suites, plus construction, lookup and empty-queue tests.

/// `count` distinct URIs, so entries are recognisable in failure messages.
func trackURIs(_ count: Int, prefix: String = "t") -> [String] {
    (0..<count).map { "file:///music/\(prefix)\($0).ogg" }
}

/// A queue of `count` entries (ids 1...count) with the entry at `current` current.
func makeQueue(
    _ count: Int, current: Int = 0, repeatMode: RepeatMode = .none, shuffled: Bool = false, seed: UInt64 = 1
) -> PlayQueue {
    var queue = PlayQueue(seed: seed)
    queue.replaceAll(with: trackURIs(count), startAt: current)
    queue.repeatMode = repeatMode
    queue.setShuffle(shuffled)
    return queue
}

extension QueueMove {
    /// The entry a move lands on, for compact assertions.
    var movedEntry: QueueEntry? {
        if case .moved(let entry, _) = self { return entry }
        return nil
    }

    var isMoved: Bool { movedEntry != nil }
}

extension PlayQueue {
    /// Checks the invariants every operation must keep.
    func checkInvariants(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Set(entries.map(\.id)).count == entries.count, "ids unique", sourceLocation: sourceLocation)
        for (position, entry) in entries.enumerated() {
            #expect(index(of: entry.id) == position, sourceLocation: sourceLocation)
        }
        #expect(storage.count == entries.count, sourceLocation: sourceLocation)
        for (position, queued) in entries.enumerated() {
            #expect(entry(at: position) == queued, sourceLocation: sourceLocation)
        }
        if let currentIndex {
            #expect(entries.indices.contains(currentIndex), sourceLocation: sourceLocation)
        }
        #expect(entries.allSatisfy { $0.id < nextID }, "counter above every id", sourceLocation: sourceLocation)
        if let shuffleOrder {
            #expect(
                shuffleOrder.isConsistent(withEntries: storage, currentID: current?.id),
                "shuffle order consistent", sourceLocation: sourceLocation)
        }
    }
}

@Suite struct PlayQueueBasicsTests {
    @Test func initClampsCurrentIndexIntoEntries() {
        let entries = [QueueEntry(id: 3, uri: "a"), QueueEntry(id: 7, uri: "b")]
        #expect(PlayQueue(entries: entries, currentIndex: 9, seed: 1).currentIndex == 1)
        #expect(PlayQueue(entries: entries, currentIndex: -4, seed: 1).currentIndex == 0)
        #expect(PlayQueue(entries: entries, currentIndex: nil, seed: 1).currentIndex == nil)
        #expect(PlayQueue(entries: [], currentIndex: 0, seed: 1).currentIndex == nil)
    }

    @Test func initDropsEntriesWithRepeatedIds() {
        let queue = PlayQueue(
            entries: [QueueEntry(id: 1, uri: "a"), QueueEntry(id: 1, uri: "b"), QueueEntry(id: 2, uri: "c")],
            seed: 1)
        #expect(queue.entries.map(\.uri) == ["a", "c"])
        queue.checkInvariants()
    }

    @Test func newIdsContinueAboveTheLargestGivenId() {
        var queue = PlayQueue(entries: [QueueEntry(id: 40, uri: "a"), QueueEntry(id: 9, uri: "b")], seed: 1)
        #expect(queue.append(["c"]).map(\.id) == [41])
    }

    @Test func lookupsFindQueuedEntriesOnly() {
        let queue = makeQueue(5, current: 2)
        let third = queue.entries[2]
        #expect(queue.current == third)
        #expect(queue.entry(id: third.id) == third)
        #expect(queue.index(of: third.id) == 2)
        #expect(queue.entry(id: 999) == nil)
        #expect(queue.index(of: 999) == nil)
    }

    @Test func replaceAllClampsTheStartIndex() {
        var queue = PlayQueue(seed: 1)
        queue.replaceAll(with: trackURIs(4), startAt: 99)
        #expect(queue.currentIndex == 3)
        queue.replaceAll(with: trackURIs(4), startAt: -2)
        #expect(queue.currentIndex == 0)
        queue.replaceAll(with: [], startAt: 2)
        #expect(queue.currentIndex == nil)
        #expect(queue.entries.isEmpty)
    }

    @Test(arguments: RepeatMode.allCases, [false, true])
    func emptyQueueDoesNothingAndNeverCrashes(repeatMode: RepeatMode, shuffled: Bool) {
        var queue = PlayQueue(seed: 1)
        queue.repeatMode = repeatMode
        queue.setShuffle(shuffled)
        #expect(queue.current == nil)
        #expect(queue.upcoming() == nil)
        #expect(!queue.canAdvance)
        #expect(!queue.canRetreat)
        #expect(queue.advance(.trackEnded) == .unchanged)
        #expect(queue.advance(.userNext) == .unchanged)
        #expect(queue.retreat() == .unchanged)
        #expect(queue.remove(id: 1) == .notFound)
        let jumped = queue.jump(to: 1)
        #expect(!jumped)
        #expect(queue.insert(["x"], after: 1, makeCurrent: true).isEmpty)
        queue.setShuffle(!shuffled)
        queue.setShuffle(shuffled)
        #expect(queue.entries.isEmpty)
        queue.checkInvariants()
    }

    @Test(arguments: [false, true])
    func queueEmptiedByRemovalBehavesLikeAnEmptyQueue(shuffled: Bool) {
        var queue = makeQueue(2, repeatMode: .playlist, shuffled: shuffled)
        for entry in queue.entries { _ = queue.remove(id: entry.id) }
        #expect(queue.current == nil)
        #expect(queue.advance(.trackEnded) == .unchanged)
        #expect(queue.retreat() == .unchanged)
        queue.checkInvariants()
        queue.append(["again"])
        #expect(queue.current?.uri == "again")
    }

    @Test(arguments: [false, true])
    func nothingCurrentStartsAtTheFirstEntryOfThePlayOrder(shuffled: Bool) {
        let entries = (1...4).map { QueueEntry(id: UInt64($0), uri: "u\($0)") }
        var queue = PlayQueue(entries: entries, currentIndex: nil, seed: 5)
        queue.setShuffle(shuffled)
        #expect(!queue.canRetreat)
        #expect(queue.retreat() == .unchanged)
        #expect(queue.canAdvance)
        let predicted = queue.upcoming()
        let move = queue.advance(.userNext)
        #expect(move.movedEntry == predicted)
        #expect(queue.current == predicted)
        if !shuffled { #expect(queue.current == entries[0]) }
        queue.checkInvariants()
    }
}
