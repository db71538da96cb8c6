public import DBus
import Foundation
public import MPRIS
import Playback

extension PlayerController {
    /// Reads tags and durations of every local queue entry not scanned yet, a batch at a time
    /// (the scanner bounds its own parallelism), and publishes what it learns. Files that cannot
    /// be read are marked broken now, so playback skips them with the reason shown.
    ///
    /// `only` limits the work to those entries (an AddTrack scans what it added instead of
    /// walking a 10 000-entry queue under the lock). The work list is taken and marked once,
    /// and results are applied one entry per lock hold, so D-Bus calls are never kept waiting
    /// behind a whole batch or a walk of the queue.
    func scanQueue(only: [QueueEntry]? = nil) {
        let work = state.withLock { state in
            // Marked first, so a concurrent scan does not pick the same entries.
            (only ?? state.queue.entries).filter { entry in
                guard entry.uri.hasPrefix("file:"), state.queue.entry(id: entry.id) != nil,
                      state.info[entry.id]?.scanned != true else { return false }
                state.info[entry.id, default: TrackInfo()].scanned = true
                return true
            }
        }
        guard !work.isEmpty else { return }
        Task.detached { [weak self] in
            for start in stride(from: 0, to: work.count, by: 32) {
                guard let self else { return }
                // Entries removed meanwhile (a replaced queue) are not worth a discoverer run.
                let batch = self.state.withLock { state in
                    work[start..<min(start + 32, work.count)].filter { state.queue.entry(id: $0.id) != nil }
                }
                guard !batch.isEmpty else { continue }
                let results = await self.scanner.scan(batch.map(\.uri))
                // Shut down meanwhile: the failures only say so, not that the files are broken.
                guard !self.scanner.isShutDown else { return }
                for (entry, result) in zip(batch, results) {
                    let lyrics = SidecarLyrics.find(forTrack: entry.uri)
                    self.state.withLock { state in
                        guard state.queue.entry(id: entry.id) != nil else { return }
                        switch result {
                        case .success(let track):
                            self.updateInfo(entry, &state) { info in
                                info.merge(track.metadata, duration: track.durationMicroseconds)
                                info.sidecarLyrics = lyrics
                            }
                        case .failure(let failure):
                            self.markFailed(entry.id, reason: failure.message, &state)
                        }
                    }
                }
            }
        }
    }

    /// Re-reads the playlist folders and publishes how many playlists there are.
    func refreshPlaylists() {
        let count = playlistLibrary.scan().count
        server.update { $0.playlists.playlistCount = UInt32(count) }
    }
}

/// `org.mpris.MediaPlayer2.Playlists`: the user's playlist files.
extension PlayerController: MPRISPlaylistsHandler {
    public func activatePlaylist(_ id: ObjectPath) throws {
        guard let item = playlistLibrary.scan().first(where: { $0.playlist.id == id }) else {
            throw DBusError(.invalidArgs, "no playlist \(id)")
        }
        let resolver = MediaResolver(scanner: scanner)
        let home = configuration.home
        Task.detached { [weak self] in
            let resolved = await resolver.resolve([item.file.path], workingDirectory: home, home: home)
            guard let self else { return }
            for rejection in resolved.rejections {
                self.logger.warning("playlist \(item.file.lastPathComponent): \(rejection)")
            }
            // A playlist whose entries are all gone must not wipe the queue the user has.
            guard !resolved.items.isEmpty else {
                self.logger.error("playlist \(item.file.lastPathComponent) has nothing playable; keeping the current queue")
                return
            }
            self.replaceQueue(with: resolved.items, playlist: item.playlist)
        }
    }

    public func playlists(index: Int, maxCount: Int, order: PlaylistOrdering, reversed: Bool) -> [Playlist] {
        let items = playlistLibrary.scan()
        server.update { $0.playlists.playlistCount = UInt32(items.count) }
        return PlaylistLibrary.page(items, index: index, maxCount: maxCount, order: order, reversed: reversed)
    }

    /// Replaces the whole queue with `items` and plays it; `playlist` becomes ActivePlaylist.
    func replaceQueue(with items: [PlayableItem], playlist: Playlist?) {
        state.withLock { state in
            state.queue.replaceAll(with: items.map(\.uri))
            state.info = [:]
            for (entry, item) in zip(state.queue.entries, items) {
                state.info[entry.id] = TrackInfo(item: item)
            }
            state.activePlaylist = playlist
            state.pendingSeek = nil
            let intent: PlaybackStatus = state.queue.current == nil ? .stopped : .playing
            loadCurrent(&state, intent: intent)
            publish(state, replacingTrackList: true, position: 0)
        }
        scanQueue()
    }
}
