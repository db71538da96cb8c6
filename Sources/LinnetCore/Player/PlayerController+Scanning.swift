import FoundationEssentials
import LibraryFormats
import Playback
import PlayerCore

extension PlayerController {
    /// Reads tags and durations of `entries` a batch at a time (the scanner bounds its own
    /// parallelism) and feeds each result to the machine. The machine marked them as being read,
    /// so no other scan picks them up. Batches start small, so the first tracks show at once, and
    /// grow to 256: each costs a round trip to the loop, which a warm cache makes the main cost.
    func scan(_ entries: [QueueEntry]) {
        watchFolders(of: entries.map(\.uri))
        Task.detached { [weak self] in
            let clock = ContinuousClock()
            let started = clock.now
            var start = 0
            var batchSize = 32
            var sidecars = SidecarLyrics.Lookup()
            while start < entries.count {
                guard let self else { return }
                // Entries removed meanwhile (a replaced queue) are not worth a discoverer run.
                let candidates = Array(entries[start..<min(start + batchSize, entries.count)])
                start += candidates.count
                batchSize = min(batchSize * 2, 256)
                let owner = self.owner
                let batch = (try? await owner.loop.run { candidates.filter { owner.value.machine.queue.entry(id: $0.id) != nil } }) ?? []
                guard !batch.isEmpty else { continue }
                let ticket = self.tagReadOrder.ticket()
                let results = await self.scanner.scan(batch.map(\.uri))
                // Shut down meanwhile: the failures only say so, not that the files are broken.
                guard !self.scanner.isShutDown else { return }
                var inputs: [PlayerInput] = []
                inputs.reserveCapacity(batch.count)
                for (entry, result) in zip(batch, results) {
                    switch result {
                    case .success(let track):
                        let lyrics = sidecars.text(forTrack: entry.uri)
                        inputs.append(.scanned(entryID: entry.id, .read(
                            TrackTags(track.metadata), duration: track.durationMicroseconds.map { .microseconds($0) }, sidecarLyrics: lyrics)))
                    case .failure(let failure):
                        inputs.append(.scanned(entryID: entry.id, .unreadable(failure.message)))
                    }
                }
                // One hop onto the loop per batch: a warm cache answers a batch at once, and a
                // wake-up per track made the loop the bottleneck of a large library's start.
                let batchInputs = inputs
                let readOrder = self.tagReadOrder
                owner.loop.perform {
                    // Checked on the loop, where the watcher's results land too: whichever of
                    // the two reads started last is applied last or not at all.
                    let current = readOrder.areCurrent(batch.map(\.uri), ticket: ticket)
                    for (input, isCurrent) in zip(batchInputs, current) where isCurrent { _ = owner.value.send(input) }
                }
            }
            // The scanner's and the cache's transient values for every file are gone.
            HeapTrim.afterRelease(ofEntries: entries.count)
            guard let self else { return }
            let seconds = Self.seconds(clock.now - started)
            let rate = seconds > 0 ? Int((Double(entries.count) / seconds).rounded()) : 0
            self.logger.debug("""
                scanned \(entries.count) queued tracks in \(Int(seconds * 1000)) ms (\(rate) per second); \
                the scanner so far: \(self.scanner.tally.description)
                """)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
