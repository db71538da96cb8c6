import DBus
import FoundationEssentials
import MPRIS
import PlayerCore

/// `org.mpris.MediaPlayer2.Playlists`: the user's playlist files.
extension PlayerController {
    /// Resolves playlist `id` off the loop and replaces the queue with it.
    func activatePlaylist(_ id: ObjectPath) throws(DBusError) {
        guard let item = playlistLibrary.scan().first(where: { $0.playlist.id == id }) else {
            throw DBusError(.invalidArgs, "no playlist \(id.rawValue.prefix(100))")
        }
        let resolver = MediaResolver(scanner: scanner)
        let home = configuration.home
        let reference = PlaylistReference(id: item.playlist.id.rawValue, name: item.playlist.name, icon: item.playlist.icon)
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
            self.send(.command(.replaceQueue(resolved.items.map(NewTrack.init), playlist: reference)))
        }
    }

    /// A page of the playlists, ordered as asked; refreshes PlaylistCount.
    func playlists(index: Int, maxCount: Int, order: PlaylistOrdering, reversed: Bool) -> [Playlist] {
        let items = playlistLibrary.scan()
        server.update { $0.playlists.playlistCount = UInt32(items.count) }
        return PlaylistLibrary.page(items, index: index, maxCount: maxCount, order: order, reversed: reversed)
    }
}
