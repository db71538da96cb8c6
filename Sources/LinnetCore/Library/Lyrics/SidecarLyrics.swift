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

    private static func locate(forTrack uri: String) -> (path: String, text: String, synced: Bool)? {
        guard let path = FileURI.path(fromURI: uri), let slash = path.lastIndex(of: "/") else { return nil }
        let name = path[path.index(after: slash)...]
        let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : name[..<$0] } ?? name
        let base = String(path[...slash]) + stem
        for (ext, synced) in [("lrc", true), ("LRC", true), ("txt", false), ("TXT", false)] {
            let candidate = base + "." + ext
            guard candidate != path,
                  let bytes = try? BoundedFileReader.read(candidate, limit: maxFileSize, followSymlinks: false),
                  let text = try? TextDecoding.decode(bytes) else { continue }
            return (candidate, synced ? text : text.trimmingWhitespace(), synced)
        }
        return nil
    }
}
