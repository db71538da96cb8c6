import Testing
@testable import PlayerCore

/// Large queues through every operation: the results stay right. The time taken is printed, not
/// asserted (shared machines are noisy); `make bench` measures queue edits on 10 000 tracks.
@Suite struct PlayQueuePerformanceTests {
    @Test func hundredThousandEntriesStayFast() {
        let size = 100_000
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            var queue = PlayQueue(seed: 1)
            queue.replaceAll(with: Array(repeating: "file:///music/x.ogg", count: size), startAt: size / 2)
            queue.repeatMode = .playlist
            queue.setShuffle(true)
            for _ in 0..<2_000 { _ = queue.advance(.trackEnded) }
            for _ in 0..<500 { _ = queue.retreat() }
            queue.append(Array(repeating: "file:///music/y.ogg", count: 1_000))
            // Shuffled, edits are O(n) each (the plan is an array of ids), so a few suffice to
            // catch O(n²); `entries` below is an O(n) copy too.
            for step in 0..<5 {
                _ = queue.remove(id: queue.entries[step * 97].id)
                queue.insert(["file:///music/z.ogg"], after: queue.entries[step * 89].id, makeCurrent: false)
                _ = queue.jump(to: queue.entries[step * 1_013].id)
                _ = queue.upcoming()
            }
            queue.setShuffle(false)
            queue.setShuffle(true)
            #expect(queue.entries.count == size + 1_000)
            #expect(queue.entry(id: queue.entries[size / 3].id) == queue.entries[size / 3])
        }
        print("PlayQueue, 100 000 entries through every operation: \(elapsed)")
    }

    @Test func shuffledRoundsPredictEveryStep() {
        var queue = PlayQueue(seed: 2)
        queue.replaceAll(with: Array(repeating: "file:///music/x.ogg", count: 10_000))
        queue.repeatMode = .playlist
        queue.setShuffle(true)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            // Two full rounds plus: each step O(1) except each round's start, O(n).
            for _ in 0..<22_000 {
                let predicted = queue.upcoming()
                #expect(queue.advance(.trackEnded).movedEntry == predicted)
            }
        }
        print("PlayQueue, 22 000 shuffled steps over 10 000 entries: \(elapsed)")
    }
}
