import Testing
@testable import LinnetCore

/// Guards against quadratic operations: a 100k-entry queue takes a burst of every operation
/// well within a bound that a quadratic step (10^10 element moves) could never meet. The bounds
/// are loose because this runs in debug builds on shared machines.
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
            // Edits are O(n) each (re-indexing what shifted), so a few suffice to catch O(n²).
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
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }

    @Test func endOfARoundIsLinear() {
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
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }
}
