import Benchmark
import PlayerCore

/// The player's own logic, without the bus or the engine: what one MPRIS call costs the loop
/// thread before its reply and signals are encoded.
func registerPlayerBenchmarks() {
    for size in [1_000, 100_000] {
        let track = NewTrack(uri: "file:///music/new.ogg")
        Benchmark("PlayerMachine AddTrack + RemoveTrack, \(size) entries") { benchmark, subject in
            for _ in benchmark.scaledIterations {
                let effects = subject.value.handle(.command(.add(track, after: subject.anchors.next(), makeCurrent: false)))
                guard let added = addedID(in: effects) else { fatalError("AddTrack added nothing: \(effects)") }
                blackHole(subject.value.handle(.command(.remove(entryID: added))))
            }
        } setup: {
            Subject(samplePlayer(size), ids: \.queue.entries)
        }

        Benchmark("PlayerMachine GoTo, \(size) entries") { benchmark, subject in
            for _ in benchmark.scaledIterations {
                blackHole(subject.value.handle(.command(.goTo(entryID: subject.anchors.next()))))
            }
        } setup: {
            Subject(samplePlayer(size), ids: \.queue.entries)
        }
    }

    Benchmark("PlayerMachine PlayPause, 1000 entries") { benchmark, subject in
        for _ in benchmark.scaledIterations {
            blackHole(subject.value.handle(.command(.playPause)))
        }
    } setup: {
        Subject(samplePlayer(1_000), ids: \.queue.entries)
    }
}

/// A paused player whose queue holds `size` sample tracks.
func samplePlayer(_ size: Int) -> PlayerMachine {
    var settings = PlayerMachine.Settings()
    settings.maximumQueueLength = size * 2
    var machine = PlayerMachine(settings: settings, queueSeed: 42)
    let tracks = sampleURIs(size).map { NewTrack(uri: $0) }
    _ = machine.handle(.start(PlayerStartup(tracks: tracks, autoplay: false)))
    precondition(machine.queue.count == size, "the sample player queued \(machine.queue.count) of \(size) tracks")
    return machine
}

/// The entry an AddTrack's effects announce.
func addedID(in effects: [PlayerEffect]) -> UInt64? {
    for case .tracksAdded(let items, _, _) in effects {
        return items.first?.entry.id
    }
    return nil
}
