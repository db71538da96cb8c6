@testable import PlayerCore
import Testing

/// The chunked id sequence behind the shuffle plan answers like a plain array through every
/// edit the plan makes, across chunk splits, emptied chunks and ids that occur more than once.
@Suite struct ShuffleTimelineTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomEditsMatchAPlainArray(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var reference: [UInt64] = Array(0..<1_200)
        generator.shuffle(&reference)
        var timeline = ShuffleTimeline(reference)
        var nextID: UInt64 = 10_000
        for step in 0..<1_500 {
            switch generator.next(below: 10) {
            case 0...3:
                // A new id, or (a replay) one already there.
                let id = generator.next(below: 4) == 0 && !reference.isEmpty
                    ? reference[generator.next(below: reference.count)] : { nextID += 1; return nextID }()
                let index = generator.next(below: reference.count + 1)
                reference.insert(id, at: index)
                timeline.insert(id, at: index)
            case 4...6:
                guard !reference.isEmpty else { continue }
                let index = generator.next(below: reference.count)
                #expect(timeline.remove(at: index) == reference.remove(at: index))
            case 7:
                guard !reference.isEmpty else { continue }
                let id = reference[generator.next(below: reference.count)]
                let expected = reference.indices.filter { reference[$0] == id }
                #expect(timeline.indices(of: id) == expected, "step \(step)")
            case 8:
                let k = generator.next(below: min(reference.count, 40) + 1)
                reference.removeFirst(k)
                timeline.removeFirst(k)
            default:
                let added = (0..<generator.next(below: 300)).map { _ in nextID += 1; return nextID }
                reference.append(contentsOf: added)
                timeline.append(contentsOf: added)
            }
            #expect(timeline.count == reference.count)
            if step % 151 == 0 { #expect(timeline.array == reference, "step \(step)") }
        }
        #expect(timeline.array == reference)
        for index in stride(from: 0, to: reference.count, by: 37) { #expect(timeline[index] == reference[index]) }
        for id in Set(reference.prefix(300)) {
            #expect(timeline.indices(of: id) == reference.indices.filter { reference[$0] == id })
        }
        #expect(timeline.indices(of: 999_999_999).isEmpty)
    }
}
