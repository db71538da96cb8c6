import Testing
@testable import PlayerCore

/// The id-keyed store against a dictionary: the same answers whatever order ids come and go in
/// (runs, gaps, ids far off the run, a run emptied and restarted, a run gone mostly holes).
@Suite struct EntryIDMapTests {
    @Test func matchesADictionaryOverRandomSetsAndRemovals() {
        var dice = SeededGenerator(seed: 0x1D5)
        var map = EntryIDMap<Int>()
        var model: [UInt64: Int] = [:]
        var live: [UInt64] = []
        func store(_ id: UInt64, _ value: Int) {
            if model.updateValue(value, forKey: id) == nil { live.append(id) }
            map[id] = value
        }
        var nextID: UInt64 = 1
        for step in 0..<20_000 {
            switch dice.next(below: 10) {
            case 0...3:
                // The queue's pattern: the next id, sometimes after a few skipped.
                nextID += dice.next(below: 5) == 0 ? UInt64(dice.next(below: 40)) : 1
                store(nextID, step)
            case 4:
                // An id far from the run (a saved session's stray id).
                store(UInt64(dice.next(below: 1_000_000)), step)
            case 5:
                if !live.isEmpty { store(live[dice.next(below: live.count)], step) }
            default:
                if !live.isEmpty {
                    live.swapAt(dice.next(below: live.count), live.count - 1)
                    let id = live.removeLast()
                    map[id] = nil
                    model[id] = nil
                }
                // An id that is most likely not there.
                let stray = UInt64(1_000_000 + dice.next(below: 1_000))
                map[stray] = nil
            }
            if step % 5_000 == 4_999 {
                // Emptied (a queue replaced): the next ids start a new run.
                for id in live { map[id] = nil }
                live = []
                model = [:]
                #expect(map.count == 0)
            }
            if step % 97 == 0 {
                #expect(map.count == model.count, "step \(step)")
                #expect(Set(map.keys) == Set(model.keys), "step \(step)")
                for (id, value) in model { #expect(map[id] == value, "step \(step) id \(id)") }
            }
        }
        #expect(map.count == model.count)
        for (id, value) in model { #expect(map[id] == value) }
    }

    @Test func aRunThatLostMostEntriesKeepsTheRest() {
        var map = EntryIDMap<UInt64>()
        for id in UInt64(100)..<UInt64(5_100) { map[id] = id * 2 }
        for id in UInt64(100)..<UInt64(5_100) where id % 10 != 0 { map[id] = nil }
        #expect(map.count == 500)
        for id in UInt64(100)..<UInt64(5_100) { #expect(map[id] == (id % 10 == 0 ? id * 2 : nil)) }
        // New ids after the run still land and read back.
        map[5_100] = 1
        map[5_101, default: 0] += 5
        #expect(map[5_100] == 1 && map[5_101] == 5 && map.count == 502)
    }
}
