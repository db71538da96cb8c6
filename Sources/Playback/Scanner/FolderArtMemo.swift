import Synchronization

/// The folder-art answer for the folder looked at last, shared by the scanner's threads. Files
/// arrive folder by folder, and ``ArtCache/folderArt(nextTo:)`` lists the folder: per file, that
/// was a read of a 10 000-entry directory each time and a quarter of a cold scan's CPU.
final class FolderArtMemo: Sendable {
    private let last = Mutex<(folder: String, art: String?)?>(nil)

    /// The art next to `uri`, looked up once per run of files from one folder.
    func art(nextTo uri: String) -> String? {
        // Bytes, not Characters, and no copy of the folder unless it is a new one: a warm start
        // asks this for every file of a library.
        guard let slash = uri.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let folderBytes = uri.utf8[..<slash]
        if let known = last.withLock({ $0 }), known.folder.utf8.elementsEqual(folderBytes) { return known.art }
        let folder = String(uri[..<slash])
        let art = ArtCache.folderArt(nextTo: uri)
        last.withLock { $0 = (folder, art) }
        return art
    }

    /// Forgets the remembered answer (a cover file was added or removed somewhere).
    func reset() {
        last.withLock { $0 = nil }
    }
}
