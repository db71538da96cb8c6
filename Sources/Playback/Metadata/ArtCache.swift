internal import CGStreamer
import FoundationEssentials
import Glibc

/// Where cover art lives as files: embedded images are written once to
/// `<directory>/<sha256 of the bytes>.<ext>`, because desktop shells only show art given as a
/// `file://` URI in a host-visible directory.
public struct ArtCache: Sendable, Hashable {
    /// The directory holding the cached images.
    public let directory: String

    /// A cache in `directory`, created on first use.
    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/linnet/art`, or `~/.cache/linnet/art` when XDG_CACHE_HOME is unset or not
    /// absolute (the XDG spec says to ignore relative values).
    public static func standard() -> ArtCache {
        // getenv, not ProcessInfo's environment, which copies every variable: each engine asks
        // for this before linnet owns its bus name.
        var environment: [String: String] = [:]
        for name in ["XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return standard(environment: environment)
    }

    /// The standard cache as resolved from `environment` instead of the process's.
    public static func standard(environment: [String: String]) -> ArtCache {
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            let home = environment["HOME"] ?? URL.homeDirectory.path
            base = home + "/.cache"
        }
        return ArtCache(directory: base + "/linnet/art")
    }

    /// Stores `bytes` of MIME type `mediaType` (e.g. `image/png`) unless an identical image is
    /// already cached, and returns the file's `file://` URI; nil if it cannot be written.
    public func store(_ bytes: [UInt8], mediaType: String) -> String? {
        guard !bytes.isEmpty else { return nil }
        let path = "\(directory)/\(Self.contentHash(bytes)).\(Self.fileExtension(for: mediaType))"
        let url = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: path) { return url.absoluteString }
        guard Self.createPrivateDirectories(directory), Self.writePrivately(bytes, to: path) else { return nil }
        return url.absoluteString
    }

    /// Cover art stored next to a local file (`cover`, `folder` or `front` as .jpg, .jpeg or .png,
    /// any case), as a `file://` URI; nil for remote URIs or when there is none.
    public static func folderArt(nextTo uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return nil
        }
        // Only names of a cover's length (9-11 bytes; no other letter lowercases into one of
        // theirs) are lowered and hashed: a 10,000-file album folder made this a dictionary of
        // 10,000 lowered names, built by the start's cache lookup and again by the engine.
        let byLowercased = Dictionary(
            names.lazy.filter { (9...11).contains($0.utf8.count) }.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for stem in ["cover", "folder", "front"] {
            for ext in ["jpg", "jpeg", "png"] {
                if let name = byLowercased["\(stem).\(ext)"] {
                    return folder.appendingPathComponent(name).absoluteString
                }
            }
        }
        return nil
    }

    static func contentHash(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            takeString(g_compute_checksum_for_data(
                G_CHECKSUM_SHA256, buffer.baseAddress, gsize(buffer.count))) ?? "unknown"
        }
    }

    static func fileExtension(for mediaType: String) -> String {
        switch mediaType.lowercased() {
        case "image/jpeg", "image/jpg": "jpg"
        case "image/png": "png"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/bmp": "bmp"
        default: "img"
        }
    }
}
