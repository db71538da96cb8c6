/// One item a playlist names, with the hints the playlist gives about it.
public struct PlaylistEntry: Sendable, Hashable {
    /// A `file://` URI (relative paths already resolved against the playlist's directory) or
    /// whatever other URI the playlist gave, unchanged.
    public var uri: String
    /// The title the playlist shows for the entry (`#EXTINF`, `TitleN`, `<title>`).
    public var title: String?
    /// The artist the playlist shows (`#EXTINF:…,Artist - Title`, `<creator>`).
    public var artist: String?
    /// The length the playlist declares, in microseconds.
    public var durationMicroseconds: Int64?

    /// An entry for `uri` with optional hints.
    public init(uri: String, title: String? = nil, artist: String? = nil, durationMicroseconds: Int64? = nil) {
        self.uri = uri
        self.title = title
        self.artist = artist
        self.durationMicroseconds = durationMicroseconds
    }
}

/// The playlist formats linnet reads.
public enum PlaylistFormat: String, Sendable, Hashable, CaseIterable {
    /// M3U and M3U8, plain or extended (`#EXTM3U`, `#EXTINF`).
    case m3u
    /// PLS (`[playlist]`, `FileN=`).
    case pls
    /// XSPF, the XML Shareable Playlist Format.
    case xspf

    /// The format a file name extension (without the dot, any case) stands for.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "m3u", "m3u8": self = .m3u
        case "pls": self = .pls
        case "xspf": self = .xspf
        default: return nil
        }
    }

    /// The file name extensions of playlists, in lower case.
    public static let fileExtensions: Set<String> = ["m3u", "m3u8", "pls", "xspf"]
}

/// Caps that keep a hostile or broken playlist from exhausting memory or time.
public struct PlaylistLimits: Sendable, Hashable {
    /// Largest playlist file read, in bytes.
    public var maxFileSize: Int
    /// Most entries kept from one playlist, nested playlists included; the rest are dropped
    /// with one problem.
    public var maxEntries: Int
    /// Longest URI or path accepted, in UTF-8 bytes.
    public var maxURILength: Int
    /// How many playlists deep references may go (the playlist given is level 1).
    public var maxNestingDepth: Int

    /// The defaults: 16 MiB, 100 000 entries, 8 KiB URIs, 8 levels.
    public init(maxFileSize: Int = 16 << 20, maxEntries: Int = 100_000, maxURILength: Int = 8192, maxNestingDepth: Int = 8) {
        self.maxFileSize = maxFileSize
        self.maxEntries = maxEntries
        self.maxURILength = maxURILength
        self.maxNestingDepth = maxNestingDepth
    }
}

/// What is wrong with a playlist or one of its lines.
public enum PlaylistError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read (missing, not a regular file, unreadable, too large).
    case file(FileAccessError)
    /// The file extension is none of ``PlaylistFormat/fileExtensions``.
    case unknownFormat(path: String)
    /// The file holds binary data, not text.
    case notText(path: String)
    /// A line or element that is not what the format expects; the text says what.
    case malformed(String)
    /// An entry longer than ``PlaylistLimits/maxURILength``.
    case uriTooLong(length: Int, limit: Int)
    /// More entries than ``PlaylistLimits/maxEntries``; the first ones were kept.
    case tooManyEntries(limit: Int)
    /// A playlist referenced deeper than ``PlaylistLimits/maxNestingDepth``; it was not read.
    case nestingTooDeep(path: String, limit: Int)
    /// A playlist that (directly or not) references itself; the reference was not followed.
    case cycle(path: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .file(let error): error.description
        case .unknownFormat(let path): "\(path): not a playlist format linnet reads (m3u, m3u8, pls, xspf)"
        case .notText(let path): "\(path): binary data, not a text playlist"
        case .malformed(let what): what
        case .uriTooLong(let length, let limit): "entry of \(length) bytes is longer than the limit of \(limit)"
        case .tooManyEntries(let limit): "more than \(limit) entries; the rest were ignored"
        case .nestingTooDeep(let path, let limit): "\(path): playlists nested more than \(limit) deep; not read"
        case .cycle(let path): "\(path): the playlist references itself; reference ignored"
        }
    }
}

/// A problem found while reading a playlist that did not stop the rest from being read.
public struct PlaylistProblem: Sendable, Hashable, CustomStringConvertible {
    /// The path of the playlist file the problem is in (a nested one, possibly).
    public var playlist: String
    /// The 1-based line number, when the format has lines.
    public var line: Int?
    /// What is wrong.
    public var error: PlaylistError

    /// A problem in `playlist` at `line`.
    public init(playlist: String, line: Int? = nil, error: PlaylistError) {
        self.playlist = playlist
        self.line = line
        self.error = error
    }

    /// `path:line: message`.
    public var description: String {
        "\(playlist)\(line.map { ":\($0)" } ?? ""): \(error)"
    }
}

/// The entries of a playlist, nested playlists expanded in place, and what was skipped.
public struct ParsedPlaylist: Sendable, Hashable {
    /// The entries in playlist order.
    public var entries: [PlaylistEntry]
    /// Lines, elements and nested playlists that were skipped, with the reason.
    public var problems: [PlaylistProblem]

    /// A result with `entries` and `problems`.
    public init(entries: [PlaylistEntry] = [], problems: [PlaylistProblem] = []) {
        self.entries = entries
        self.problems = problems
    }
}
