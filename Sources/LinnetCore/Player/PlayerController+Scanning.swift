import FoundationEssentials
import Playback
import PlayerCore

extension PlayerController {
    /// Reads tags and durations of `entries` a batch at a time (the scanner bounds its own
    /// parallelism) and feeds each result to the machine. The machine marked them as being read,
    /// so no other scan picks them up.
    func scan(_ entries: [QueueEntry]) {
        Task.detached { [weak self] in
            for start in stride(from: 0, to: entries.count, by: 32) {
                guard let self else { return }
                // Entries removed meanwhile (a replaced queue) are not worth a discoverer run.
                let candidates = Array(entries[start..<min(start + 32, entries.count)])
                let owner = self.owner
                let batch = (try? await owner.loop.run { candidates.filter { owner.value.machine.queue.entry(id: $0.id) != nil } }) ?? []
                guard !batch.isEmpty else { continue }
                let results = await self.scanner.scan(batch.map(\.uri))
                // Shut down meanwhile: the failures only say so, not that the files are broken.
                guard !self.scanner.isShutDown else { return }
                for (entry, result) in zip(batch, results) {
                    switch result {
                    case .success(let track):
                        let lyrics = SidecarLyrics.find(forTrack: entry.uri)?.plainText
                        self.send(.scanned(entryID: entry.id, .read(
                            TrackTags(track.metadata), durationMicroseconds: track.durationMicroseconds, sidecarLyrics: lyrics)))
                    case .failure(let failure):
                        self.send(.scanned(entryID: entry.id, .unreadable(failure.message)))
                    }
                }
            }
        }
    }
}
