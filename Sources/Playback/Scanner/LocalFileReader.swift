internal import CGStreamer

/// Reads one URI the way the scanner prefers: TagLib for local files, GStreamer's discoverer for
/// the rest. One per scanner thread; it keeps that thread's discoverer and the folder-art answer
/// for the folder it read last (files arrive folder by folder, and listing a folder per file
/// cost a directory read each).
final class LocalFileReader {
    private let source: TagSource
    private let artCache: ArtCache
    private let tagReader: TagReader
    private let timeoutNanoseconds: UInt64
    private var discoverer: Discoverer?
    private var lastFolder: (folder: Substring, art: String?)?

    init(source: TagSource, artCache: ArtCache, timeoutNanoseconds: UInt64) {
        self.source = source
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
            if track.metadata.artURI == nil { track.metadata.artURI = folderArt(nextTo: uri) }
            return .tagLib(track, identity)
        }
        let discoverer = self.discoverer ?? Discoverer(timeoutNanoseconds: timeoutNanoseconds, tagReader: tagReader)
        self.discoverer = discoverer
        return .gstreamer(try discoverer.scan(uri), identity)
    }

    private func folderArt(nextTo uri: String) -> String? {
        guard let slash = uri.lastIndex(of: "/") else { return nil }
        let folder = uri[..<slash]
        if let lastFolder, lastFolder.folder == folder { return lastFolder.art }
        let art = ArtCache.folderArt(nextTo: uri)
        lastFolder = (folder, art)
        return art
    }

    /// The path of a `file://` URI; nil for other schemes or one GLib cannot decode.
    static func localPath(of uri: String) -> String? {
        guard uri.hasPrefix("file://"), let path = g_filename_from_uri(uri, nil, nil) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
}
