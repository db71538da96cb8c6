internal import CGStreamer

/// Reads one URI the way the scanner prefers: TagLib for local files, GStreamer's discoverer for
/// the rest. One per scanner thread, keeping that thread's discoverer.
final class LocalFileReader {
    private let source: TagSource
    private let artCache: ArtCache
    private let tagReader: TagReader
    private let timeoutNanoseconds: UInt64
    private let folderArt: FolderArtMemo
    private var discoverer: Discoverer?

    init(source: TagSource, artCache: ArtCache, folderArt: FolderArtMemo, timeoutNanoseconds: UInt64) {
        self.source = source
        self.folderArt = folderArt
        self.artCache = artCache
        self.timeoutNanoseconds = timeoutNanoseconds
        tagReader = TagReader(artCache: artCache)
    }

    enum Outcome {
        case tagLib(ScannedTrack, FileIdentity?)
        case gstreamer(ScannedTrack, FileIdentity?)
    }

    func read(_ uri: String) throws -> Outcome {
        let path = Self.localPath(of: uri)
        let identity = path.flatMap(FileIdentity.current(path:))
        if source == .tagLibFirst, let path, identity != nil,
           var track = TagLibFile.read(path: path, uri: uri, artCache: artCache) {
            if track.metadata.artURI == nil { track.metadata.artURI = folderArt.art(nextTo: uri) }
            return .tagLib(track, identity)
        }
        let discoverer = self.discoverer ?? Discoverer(timeoutNanoseconds: timeoutNanoseconds, tagReader: tagReader)
        self.discoverer = discoverer
        return .gstreamer(try discoverer.scan(uri), identity)
    }


    /// The path of a `file://` URI; nil for other schemes or one GLib cannot decode.
    static func localPath(of uri: String) -> String? {
        guard uri.hasPrefix("file://"), let path = g_filename_from_uri(uri, nil, nil) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
}
