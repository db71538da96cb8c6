public import LibraryFormats
/// Finds lyrics stored next to a local track: `<basename>.lrc` (synced) or `<basename>.txt`
/// (plain), in the track's own directory only.
///
/// The sidecar must be a regular file and not a symlink: lyrics end up on the session bus, and a
/// link next to a downloaded file must not expose some other file of the user's.
public enum SidecarLyrics {
    /// Largest sidecar read, in bytes.
    public static let maxFileSize = 1 << 20

    /// The lyrics next to the track at `uri`, or nil when it is not a local file or has none.
    /// `.lrc` wins over `.txt`; lower-case extensions over upper-case ones.
    public static func find(forTrack uri: String) -> Lyrics? {
        guard let (path, text, synced) = locate(forTrack: uri) else { return nil }
        var lyrics = synced ? LRCParser.parse(text) : Lyrics(plainText: text)
        lyrics.sourcePath = path
        return lyrics
    }

    /// The sidecar's text as the file holds it (LRC stamps and all, for ``TrackLyrics``), or nil.
    public static func text(forTrack uri: String) -> String? {
        locate(forTrack: uri)?.text
    }

    /// The sidecar texts of many tracks: each folder is listed once and only the sidecars it
    /// holds are opened, where asking track by track tries four names per track (40,000 failed
    /// opens for a 10,000-file folder with no lyrics).
    ///
    /// A lookup remembers a folder's names from its first question: use one per pass over the
    /// queue, not across file changes.
    public struct Lookup {
        /// Lyrics-shaped names per folder path (ending in "/"); nil when the folder could not be
        /// listed, and each candidate is then tried as ``text(forTrack:)`` does.
        private var sidecarNames: [String: Set<String>?] = [:]
        /// URI prefixes (up to the last "/") of folders known to hold no lyrics-shaped file: most
        /// tracks of a library are answered from here, without parsing their URI.
        private var foldersWithoutSidecars: Set<Substring> = []

        public init() {}

        /// A lookup that knows the lyrics-shaped names of `folders` (path ending in "/" → names)
        /// already, as a folder walk saw them while listing: those folders are not listed again
        /// (a second listing of a 10,000-file folder at every start).
        public init(knownFolders folders: [String: Set<String>]) {
            sidecarNames = folders.mapValues { .some($0) }
        }

        /// The sidecar's text for the track at `uri`, as ``SidecarLyrics/text(forTrack:)`` gives it.
        public mutating func text(forTrack uri: String) -> String? {
            // Searched as bytes: a Character search backwards segments graphemes, per track.
            guard let uriSlash = uri.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
            let uriFolder = uri[...uriSlash]
            guard !foldersWithoutSidecars.contains(uriFolder) else { return nil }
            guard let path = FileURI.path(fromURI: uri), let slash = path.lastIndex(of: "/") else { return nil }
            let folder = String(path[...slash])
            let names: Set<String>?
            if let known = sidecarNames[folder] {
                names = known
            } else {
                names = Self.sidecarNames(in: folder)
                sidecarNames[folder] = .some(names)
            }
            if names?.isEmpty == true { foldersWithoutSidecars.insert(uriFolder) }
            return locate(path: path, slash: slash, present: names)?.text
        }

        private static func sidecarNames(in folder: String) -> Set<String>? {
            guard case .success(let names) = FolderWalker.names(in: folder) else { return nil }
            return Set(names.filter(SidecarLyrics.isSidecarShaped))
        }
    }

    /// Whether an entry called `name` could be a track's lyrics file (by its extension).
    public static func isSidecarShaped(_ name: String) -> Bool {
        sidecarExtensions.contains { name.hasSuffix("." + $0.ext) }
    }

    private static let sidecarExtensions: [(ext: String, synced: Bool)] = [("lrc", true), ("LRC", true), ("txt", false), ("TXT", false)]

    private static func locate(forTrack uri: String) -> (path: String, text: String, synced: Bool)? {
        guard let path = FileURI.path(fromURI: uri), let slash = path.lastIndex(of: "/") else { return nil }
        return locate(path: path, slash: slash, present: nil)
    }

    /// `present`: the sidecar-shaped names of the track's folder, when known; names not in it are
    /// not tried.
    private static func locate(path: String, slash: String.Index, present: Set<String>?) -> (path: String, text: String, synced: Bool)? {
        let name = path[path.index(after: slash)...]
        let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : name[..<$0] } ?? name
        let base = String(path[...slash]) + stem
        for (ext, synced) in sidecarExtensions {
            if let present, !present.contains(stem + "." + ext) { continue }
            let candidate = base + "." + ext
            guard candidate != path,
                  let bytes = try? BoundedFileReader.read(candidate, limit: maxFileSize, followSymlinks: false),
                  let text = try? TextDecoding.decode(bytes) else { continue }
            return (candidate, synced ? text : text.trimmingWhitespace(), synced)
        }
        return nil
    }
}
