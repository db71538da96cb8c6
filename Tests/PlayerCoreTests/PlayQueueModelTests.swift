import Testing
@testable import PlayerCore

/// The queue in natural order against the simplest model that states its rules (an array of ids
/// and a current position), over queues of several chunks, plus a large shuffled queue edited
/// at random: what the chunked storage must not change.
@Suite struct PlayQueueModelTests {
    /// The rules of the natural order, written plainly.
    private struct Model {
        var ids: [UInt64] = []
        var current: Int?
        var repeatMode = RepeatMode.none

        mutating func insert(_ new: [UInt64], after id: UInt64?, makeCurrent: Bool) {
            let position: Int
            if let id {
                guard let index = ids.firstIndex(of: id) else { return }
                position = index + 1
            } else {
                position = 0
            }
            guard !new.isEmpty else { return }
            let currentID = current.map { ids[$0] }
            ids.insert(contentsOf: new, at: position)
            if makeCurrent || currentID == nil {
                current = position
            } else {
                current = currentID.flatMap { ids.firstIndex(of: $0) }
            }
        }

        mutating func remove(_ id: UInt64) -> Bool {
            guard let index = ids.firstIndex(of: id) else { return false }
            let currentID = current.map { ids[$0] }
            ids.remove(at: index)
            if currentID == id {
                current = ids.isEmpty ? nil : min(index, ids.count - 1)
            } else {
                current = currentID.flatMap { ids.firstIndex(of: $0) }
            }
            return true
        }

        /// The id moved to (nil: no move) and whether it wrapped.
        mutating func advance(_ reason: AdvanceReason) -> (id: UInt64, wrapped: Bool)? {
            guard !ids.isEmpty else { return nil }
            if reason == .trackEnded, repeatMode == .track, let current { return (ids[current], false) }
            guard let index = current else {
                current = 0
                return (ids[0], false)
            }
            if index + 1 < ids.count {
                current = index + 1
                return (ids[index + 1], false)
            }
            guard repeatMode == .playlist else { return nil }
            current = 0
            return (ids[0], true)
        }

        mutating func retreat() -> (id: UInt64, wrapped: Bool)? {
            guard let index = current else { return nil }
            if index > 0 {
                current = index - 1
                return (ids[index - 1], false)
            }
            guard repeatMode == .playlist else { return nil }
            current = ids.count - 1
            return (ids[ids.count - 1], true)
        }

        var canAdvance: Bool {
            guard let current else { return !ids.isEmpty }
            return current + 1 < ids.count || repeatMode == .playlist
        }
    }

    @Test func naturalOrderMatchesTheArrayModelOverRandomEditsAndMoves() {
        for seed: UInt64 in 1...4 {
            var dice = SeededGenerator(seed: seed &* 0x9E37)
            var queue = PlayQueue(seed: seed)
            var model = Model()
            for step in 0..<2_000 {
                let label = "seed \(seed) step \(step)"
                switch dice.next(below: 12) {
                case 0..<3:
                    // Mostly single tracks, now and then a batch, so the queue spans several chunks.
                    let count = dice.next(below: 8) == 0 ? 1 + dice.next(below: 200) : 1
                    let anchor = model.ids.isEmpty || dice.next(below: 10) == 0 ? nil : model.ids[dice.next(below: model.ids.count)]
                    let makeCurrent = dice.next(below: 5) == 0
                    let added = queue.insert(trackURIs(count, prefix: "s\(step)-"), after: anchor, makeCurrent: makeCurrent)
                    model.insert(added.map(\.id), after: anchor, makeCurrent: makeCurrent)
                    #expect(added.count == count, "\(label)")
                case 3..<6:
                    guard !model.ids.isEmpty else { continue }
                    let id = dice.next(below: 20) == 0 ? UInt64.max : model.ids[dice.next(below: model.ids.count)]
                    let wasCurrent = model.current.map { model.ids[$0] } == id
                    let expected: QueueRemoval = model.remove(id) ? .removed(wasCurrent: wasCurrent) : .notFound
                    let removal = queue.remove(id: id)
                    #expect(removal == expected, "\(label)")
                case 6:
                    guard !model.ids.isEmpty else { continue }
                    let index = dice.next(below: model.ids.count)
                    let jumped = queue.jump(to: model.ids[index])
                    #expect(jumped, "\(label)")
                    model.current = index
                case 7..<9:
                    let reason: AdvanceReason = dice.next(below: 2) == 0 ? .trackEnded : .userNext
                    let upcoming = queue.upcoming()
                    let expected = model.advance(reason)
                    let move = queue.advance(reason)
                    switch move {
                    case .moved(let entry, let wrapped):
                        #expect(expected?.id == entry.id && expected?.wrapped == wrapped, "\(label)")
                    case .repeatedTrack(let entry):
                        #expect(expected?.id == entry.id && reason == .trackEnded && model.repeatMode == .track, "\(label)")
                    case .reachedEnd, .unchanged:
                        #expect(expected == nil, "\(label)")
                    }
                    if reason == .trackEnded { #expect(upcoming?.id == expected?.id, "\(label)") }
                case 9:
                    let expected = model.retreat()
                    let move = queue.retreat()
                    #expect(move.movedEntry?.id == expected?.id, "\(label)")
                    if case .moved(_, let wrapped) = move { #expect(wrapped == expected?.wrapped, "\(label)") }
                case 10:
                    let mode = RepeatMode.allCases[dice.next(below: 3)]
                    queue.repeatMode = mode
                    model.repeatMode = mode
                default:
                    // Keeps the queue from growing without bound: drops a run of entries.
                    for _ in 0..<min(model.ids.count, dice.next(below: 60)) {
                        let id = model.ids[dice.next(below: model.ids.count)]
                        _ = model.remove(id)
                        _ = queue.remove(id: id)
                    }
                }
                #expect(queue.currentIndex == model.current, "\(label)")
                #expect(queue.current?.id == model.current.map { model.ids[$0] }, "\(label)")
                #expect(queue.count == model.ids.count, "\(label)")
                #expect(queue.canAdvance == model.canAdvance, "\(label)")
                if step % 97 == 0 {
                    #expect(queue.entries.map(\.id) == model.ids, "\(label)")
                    queue.checkInvariants()
                }
            }
        }
    }

    @Test func largeShuffledQueueEditedAtRandomStillPlaysEachEntryOncePerRound() {
        var dice = SeededGenerator(seed: 77)
        var queue = makeQueue(1_200, current: 600, repeatMode: .playlist, shuffled: true, seed: 5)
        for step in 0..<400 {
            let ids = queue.entries.map(\.id)
            let id = ids[dice.next(below: ids.count)]
            switch dice.next(below: 4) {
            case 0:
                _ = queue.remove(id: id)
            case 1:
                let makeCurrent = dice.next(below: 8) == 0
                _ = queue.insert(trackURIs(1 + dice.next(below: 3), prefix: "n\(step)-"), after: id, makeCurrent: makeCurrent)
            case 2:
                let jumped = queue.jump(to: id)
                #expect(jumped)
            default:
                _ = queue.advance(.userNext)
            }
        }
        queue.checkInvariants()
        // Plays out this round, then one whole round: every entry exactly once.
        while queue.shuffleOrder?.nextID != nil { _ = queue.advance(.trackEnded) }
        var played: [UInt64] = []
        for _ in 0..<queue.count {
            guard case .moved(let entry, _) = queue.advance(.trackEnded) else { break }
            played.append(entry.id)
        }
        #expect(played.count == queue.count)
        #expect(Set(played) == Set(queue.entries.map(\.id)))
    }
}
