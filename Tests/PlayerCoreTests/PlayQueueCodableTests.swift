import Foundation
import Testing
@testable import PlayerCore

/// Encodes and decodes through JSON, as the state file will.
func roundTrip(_ queue: PlayQueue) throws -> PlayQueue {
    try JSONDecoder().decode(PlayQueue.self, from: JSONEncoder().encode(queue))
}

/// Saving and restoring: everything survives, and damaged saved states are repaired or rejected.
@Suite struct PlayQueueCodableTests {
    /// Encodes `queue`, lets `edit` damage the JSON object, and decodes the result.
    private func decodeDamaged(_ queue: PlayQueue, _ edit: (inout [String: Any]) -> Void) throws -> PlayQueue {
        let data = try JSONEncoder().encode(queue)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&object)
        return try JSONDecoder().decode(PlayQueue.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test func roundTripMidShuffleContinuesIdentically() throws {
        var queue = makeQueue(30, current: 7, repeatMode: .playlist, shuffled: true, seed: 99)
        for _ in 0..<10 { _ = queue.advance(.trackEnded) }
        _ = queue.retreat()
        _ = queue.retreat()
        queue.append(trackURIs(3, prefix: "late"))
        var restored = try roundTrip(queue)
        #expect(restored == queue)
        // Several rounds ahead, so new permutations drawn from the restored generator are compared.
        for step in 0..<120 {
            let reason: AdvanceReason = step % 7 == 0 ? .userNext : .trackEnded
            #expect(restored.upcoming() == queue.upcoming())
            #expect(restored.advance(reason) == queue.advance(reason), "step \(step)")
        }
        let added = queue.append(["x"])
        #expect(restored.append(["x"]) == added, "the id counter survived")
        #expect(restored == queue)
    }

    @Test(arguments: [false, true])
    func roundTripKeepsRepeatModeCurrentAndNothingCurrent(shuffled: Bool) throws {
        var queue = makeQueue(4, current: 2, repeatMode: .track, shuffled: shuffled, seed: 3)
        #expect(try roundTrip(queue) == queue)
        queue = PlayQueue(entries: [QueueEntry(id: 5, uri: "a")], currentIndex: nil, seed: 3)
        queue.setShuffle(shuffled)
        #expect(try roundTrip(queue) == queue)
        #expect(try roundTrip(PlayQueue(seed: 1)) == PlayQueue(seed: 1))
    }

    @Test func outOfRangeSavedCurrentIndexIsClamped() throws {
        let restored = try decodeDamaged(makeQueue(3)) { $0["currentIndex"] = 42 }
        #expect(restored.currentIndex == 2)
        restored.checkInvariants()
    }

    @Test func savedCounterBelowAnIdIsRaised() throws {
        var restored = try decodeDamaged(makeQueue(3)) { $0["nextID"] = 1 }
        #expect(restored.append(["new"]).map(\.id) == [4])
    }

    @Test func savedShufflePlanThatDoesNotMatchTheEntriesIsReplaced() throws {
        let queue = makeQueue(6, current: 4, shuffled: true, seed: 5)
        let restored = try decodeDamaged(queue) { object in
            var order = object["shuffleOrder"] as? [String: Any] ?? [:]
            order["ids"] = [1, 2, 999]
            object["shuffleOrder"] = order
        }
        #expect(restored.isShuffled)
        #expect(restored.current == queue.current, "the user's place is kept")
        restored.checkInvariants()
        let beyondPlan = try decodeDamaged(queue) { object in
            var order = object["shuffleOrder"] as? [String: Any] ?? [:]
            order["position"] = 50
            object["shuffleOrder"] = order
        }
        #expect(beyondPlan.current == queue.current)
        beyondPlan.checkInvariants()
    }

    @Test func savedEntriesSharingAnIdAreRejected() throws {
        #expect(throws: DecodingError.self) {
            try decodeDamaged(makeQueue(2)) { object in
                object["entries"] = [["id": 1, "uri": "a"], ["id": 1, "uri": "b"]]
            }
        }
    }

    @Test func savedIdsWithNoRoomLeftAreRejected() throws {
        #expect(throws: DecodingError.self) {
            try decodeDamaged(makeQueue(2)) { $0["nextID"] = UInt64.max }
        }
    }
}
