import FoundationEssentials
import Glibc
import LibraryFormats
import MPRIS
import DBus

/// The user's playlist files (in the music folder and linnet's own playlist folder), offered
/// through MPRIS's Playlists interface. Ids are derived from the file path, so they stay the
/// same across restarts.
struct PlaylistLibrary: Sendable {
    struct Item: Sendable {
        let playlist: Playlist
        let file: URL
        let modified: Date
    }

    static let extensions: Set<String> = ["m3u", "m3u8", "pls", "xspf"]
    let directories: [URL]

    init(directories: [URL]) {
        self.directories = directories
    }

    /// Every playlist file directly in the directories, by path.
    func scan() -> [Item] {
        var items: [Item] = []
        var seen = Set<String>()
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names {
                let file = directory.appendingPathComponent(name)
                guard Self.extensions.contains(file.pathExtension.lowercased()) else { continue }
                let path = file.standardizedFileURL.path
                guard seen.insert(path).inserted else { continue }
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
                let playlist = Playlist(id: Self.id(forPath: path), name: file.deletingPathExtension().lastPathComponent)
                items.append(Item(playlist: playlist, file: file, modified: modified))
            }
        }
        return items.sorted { $0.file.path < $1.file.path }
    }

    /// `/org/linnet/playlist/p<hash>`: FNV-1a of the path, stable across runs.
    static func id(forPath path: String) -> ObjectPath {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return ObjectPath(rawValue: "/org/linnet/playlist/p" + String(hash, radix: 16))!
    }

    /// `items` in the MPRIS ordering asked for, then paged.
    static func page(_ items: [Item], index: Int, maxCount: Int, order: PlaylistOrdering, reversed: Bool) -> [Playlist] {
        var sorted: [Item]
        switch order {
        case .modifiedDate, .creationDate, .lastPlayDate:
            sorted = items.sorted { $0.modified < $1.modified }
        case .alphabetical, .userDefined:
            sorted = NaturalOrder.sorted(items) { $0.playlist.name }
        }
        if reversed { sorted.reverse() }
        return sorted.dropFirst(max(0, index)).prefix(max(0, maxCount)).map(\.playlist)
    }
}
