import PlayerCore

/// The play queue's own cost of an AddTrack / RemoveTrack pair at 100 000 entries, shuffled and
/// not, in process (no bus, no scan): what the shuffle plan adds to the black-box figures of
/// Benchmarks/queue/run.sh, which a loaded machine blurs. Prints p50 / p99 / max in microseconds.
///
///   swift run -c release QueueEditBench [entries] [pairs]
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let size = arguments.first ?? 99_999
let pairs = arguments.dropFirst().first ?? 2_000

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func report(_ label: String, _ samples: [Double]) {
    let sorted = samples.sorted()
    let figures = [("p50", percentile(sorted, 0.5)), ("p99", percentile(sorted, 0.99)), ("max", sorted.last ?? 0)]
    for (name, value) in figures {
        print("queue-edits@\(size) \(label)_\(name)_us \(Double(Int(value * 10)) / 10)")
    }
}

let clock = ContinuousClock()
func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

for shuffled in [false, true] {
    var queue = PlayQueue(seed: 7)
    queue.replaceAll(with: (0..<size).map { "http://127.0.0.1:9/scale/\($0).ogg" }, startAt: 0)
    queue.setShuffle(shuffled)
    // Some history, as a listener's queue has: the plan's played part and position move on.
    for _ in 0..<min(1_000, size / 2) { _ = queue.advance(.userNext) }
    let middle = queue.entries[size / 2].id
    var adds: [Double] = []
    var removes: [Double] = []
    adds.reserveCapacity(pairs)
    removes.reserveCapacity(pairs)
    for _ in 0..<pairs {
        var added: [QueueEntry] = []
        adds.append(microseconds(clock.measure {
            added = queue.insert(["file:///music/added.ogg"], after: middle, makeCurrent: false)
        }))
        removes.append(microseconds(clock.measure { _ = queue.remove(id: added[0].id) }))
    }
    report(shuffled ? "shuffled_add" : "add", adds)
    report(shuffled ? "shuffled_remove" : "remove", removes)
}
