import Benchmark
import PlayerCore

/// The queue at the issue's scale: edits and jumps in a 100,000-entry queue must not copy or
/// scan it, so their counts stay those of a small queue.
func registerQueueBenchmarks() {
    for size in [1_000, 100_000] {
        for shuffled in [false, true] {
            Benchmark("PlayQueue insert + remove, \(shuffled ? "shuffled, " : "")\(size) entries") { benchmark, subject in
                for _ in benchmark.scaledIterations {
                    let added = subject.value.insert(["file:///music/new.ogg"], after: subject.anchors.next(), makeCurrent: false)
                    blackHole(subject.value.remove(id: added[0].id))
                }
            } setup: {
                Subject(sampleQueue(size, shuffled: shuffled), ids: \.entries)
            }
        }

        Benchmark("PlayQueue jump, \(size) entries") { benchmark, subject in
            for _ in benchmark.scaledIterations {
                blackHole(subject.value.jump(to: subject.anchors.next()))
            }
        } setup: {
            Subject(sampleQueue(size, shuffled: false), ids: \.entries)
        }
    }
}

/// A queue of `size` distinct file URIs in 100-track folders, the current entry in the middle.
func sampleQueue(_ size: Int, shuffled: Bool) -> PlayQueue {
    var queue = PlayQueue(seed: 42)
    _ = queue.replaceAll(with: sampleURIs(size), startAt: size / 2)
    if shuffled { queue.setShuffle(true) }
    return queue
}

/// `count` file URIs as a library lays them out: folders of 100 tracks.
func sampleURIs(_ count: Int) -> [String] {
    (0..<count).map { "file:///music/Artist \($0 / 1_000)/Album \($0 / 100)/\($0 % 100) Track.ogg" }
}

/// What one benchmark mutates, kept in a box across its samples: a copy per sample (a `var`
/// taken from the setup's value) would copy the whole queue on the first edit, and the copy
/// would be what is measured.
final class Subject<Value> {
    var value: Value
    var anchors: AnchorCycle

    /// `value`, with anchors over the ids of the entries `entries` lists.
    init(_ value: Value, ids entries: (Value) -> [QueueEntry]) {
        self.value = value
        anchors = AnchorCycle(entries(value).map(\.id))
    }
}

/// Positions spread over the whole queue, visited in a fixed pseudo-random order, so that an
/// edit's cost is the average over the queue, not that of its start.
struct AnchorCycle {
    private let ids: [UInt64]
    private var position = 0

    /// `ids` must not be empty; 7,919 is prime, so each id comes once per cycle unless the
    /// count is a multiple of it.
    init(_ ids: [UInt64]) {
        self.ids = ids
    }

    mutating func next() -> UInt64 {
        position = (position + 7_919) % ids.count
        return ids[position]
    }
}
