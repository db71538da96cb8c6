import Testing
@testable import PlayerCore

/// The chunked entry store against a plain array: the same answers after every edit, through
/// chunk splits (inserts past the capacity), merges and emptied chunks (removals).
@Suite struct EntrySequenceTests {
    @Test func matchesAnArrayOverRandomEditsAcrossChunkSplitsAndMerges() {
        var dice = SeededGenerator(seed: 0x5E9)
        var sequence = EntrySequence()
        var model: [QueueEntry] = []
        var nextID: UInt64 = 1
        var splits = 0
        // Grow to several chunks' worth, then shrink to nothing, twice.
        for phase in 0..<4 {
            let growing = phase % 2 == 0
            for step in 0..<1_500 {
                let chunksBefore = sequence.chunkCount
                if growing ? dice.next(below: 4) != 0 : (model.isEmpty || dice.next(below: 4) == 0) {
                    let batch = (0..<(1 + dice.next(below: dice.next(below: 10) == 0 ? 300 : 3))).map { _ in
                        defer { nextID += 1 }
                        return QueueEntry(id: nextID, uri: "u\(nextID)")
                    }
                    let index = dice.next(below: model.count + 1)
                    sequence.insert(contentsOf: batch, at: index)
                    model.insert(contentsOf: batch, at: index)
                } else if !model.isEmpty {
                    let index = dice.next(below: model.count)
                    let removed = model.remove(at: index)
                    #expect(sequence.remove(id: removed.id) == index)
                }
                if sequence.chunkCount > chunksBefore { splits += 1 }
                check(sequence, against: model, dice: &dice, "phase \(phase) step \(step)")
            }
            if !growing {
                while let last = model.popLast() { #expect(sequence.remove(id: last.id) == model.count) }
                check(sequence, against: model, dice: &dice, "phase \(phase) emptied")
            }
        }
        #expect(splits > 10, "the edits split chunks")
    }

    @Test func edgesOfAnEmptyAndAOneEntrySequence() {
        var sequence = EntrySequence()
        #expect(sequence.remove(id: 1) == nil)
        #expect(sequence.first == nil && sequence.last == nil && sequence.isEmpty)
        sequence.insert(contentsOf: [QueueEntry(id: 1, uri: "a")], at: 0)
        sequence.insert(contentsOf: [QueueEntry(id: 2, uri: "b")], at: 1)
        sequence.insert(contentsOf: [], at: 2)
        #expect(sequence.array.map(\.id) == [1, 2])
        #expect(sequence.remove(id: 3) == nil)
        #expect(sequence.remove(id: 1) == 0)
        #expect(sequence.remove(id: 2) == 0)
        #expect(sequence.isEmpty && sequence.index(of: 2) == nil && !sequence.contains(id: 1))
        sequence.insert(contentsOf: [QueueEntry(id: 9, uri: "c")], at: 0)
        #expect(sequence[0].id == 9 && sequence.first == sequence.last)
    }

    @Test func equalityIgnoresHowEntriesAreChunked() {
        let entries = (1...1_000).map { QueueEntry(id: UInt64($0), uri: "u\($0)") }
        var pieced = EntrySequence()
        for entry in entries.reversed() { pieced.insert(contentsOf: [entry], at: 0) }
        #expect(pieced == EntrySequence(entries))
        #expect(pieced.chunkCount != EntrySequence(entries).chunkCount, "the two are chunked differently")
        _ = pieced.remove(id: 500)
        #expect(pieced != EntrySequence(entries))
    }

    private func check(
        _ sequence: EntrySequence, against model: [QueueEntry], dice: inout SeededGenerator, _ where: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sequence.count == model.count, "\(`where`)", sourceLocation: sourceLocation)
        #expect(sequence.first == model.first && sequence.last == model.last, "\(`where`)", sourceLocation: sourceLocation)
        guard !model.isEmpty else { return }
        for _ in 0..<8 {
            let index = dice.next(below: model.count)
            #expect(sequence[index] == model[index], "\(`where`)", sourceLocation: sourceLocation)
            #expect(sequence.index(of: model[index].id) == index, "\(`where`)", sourceLocation: sourceLocation)
            #expect(sequence.entry(id: model[index].id) == model[index], "\(`where`)", sourceLocation: sourceLocation)
        }
        if dice.next(below: 50) == 0 {
            #expect(sequence.array == model, "\(`where`)", sourceLocation: sourceLocation)
            #expect(sequence.ids == model.map(\.id), "\(`where`)", sourceLocation: sourceLocation)
            #expect(sequence.isWellFormed, "\(`where`)", sourceLocation: sourceLocation)
        }
    }
}
