public import LibraryFormats
public import Playback

/// One thing to play, found from what the user gave.
public struct PlayableItem: Sendable, Hashable {
    /// A canonical `file://` URI or an http(s) URI.
    public var uri: String
    /// The title a playlist gave for it.
    public var title: String?
    /// The artist a playlist gave for it.
    public var artist: String?
    /// The length a playlist gave for it, in microseconds.
    public var durationMicroseconds: Int64?
    /// Tags and duration read while ordering a folder (nil for files that were not scanned or
    /// could not be read), so the player need not scan them again.
    public var scanned: ScannedTrack? {
        get { scannedBox?.track }
        set { scannedBox = newValue.map(ScannedBox.init) }
    }
    /// Boxed: a scan result is ~340 bytes inline, and a resolution of 100 000 items (most never
    /// scanned) would carry them all, twice over while its array grows.
    private var scannedBox: ScannedBox?
    /// The text of a lyrics file beside a ``scanned`` track (the player does not look again for
    /// entries that come scanned).
    public var sidecarLyrics: String?

    private final class ScannedBox: Sendable, Hashable {
        let track: ScannedTrack
        init(_ track: ScannedTrack) { self.track = track }
        static func == (lhs: ScannedBox, rhs: ScannedBox) -> Bool { lhs === rhs || lhs.track == rhs.track }
        func hash(into hasher: inout Hasher) { hasher.combine(track) }
    }

    /// An item for `uri` with optional hints.
    public init(
        uri: String, title: String? = nil, artist: String? = nil, durationMicroseconds: Int64? = nil,
        scanned: ScannedTrack? = nil, sidecarLyrics: String? = nil
    ) {
        self.uri = uri
        self.title = title
        self.artist = artist
        self.durationMicroseconds = durationMicroseconds
        self.scannedBox = scanned.map(ScannedBox.init)
        self.sidecarLyrics = sidecarLyrics
    }
}

/// Why an input, or an entry of a playlist it named, will not be played.
public enum RejectionReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``MediaAdmissionRule`` refused the location (the same answer the bus gives).
    case refused(MediaRefusal)
    /// The playlist could not be read at all.
    case playlist(PlaylistError)
    /// A line or nested playlist inside a playlist was skipped.
    case playlistProblem(PlaylistProblem)
    /// A folder holds no audio files.
    case emptyFolder
    /// The queue limit was reached; this and everything after it was dropped.
    case tooManyItems(limit: Int)

    /// A sentence saying why.
    public var description: String {
        switch self {
        case .refused(let refusal): refusal.description
        case .playlist(let error): "playlist: \(error)"
        case .playlistProblem(let problem): "skipped in playlist: \(problem)"
        case .emptyFolder: "the folder holds no audio files"
        case .tooManyItems(let limit): "more than \(limit) items; the rest were dropped"
        }
    }
}

/// An input (or playlist entry) that will not be played, and why.
public struct Rejection: Sendable, Hashable, CustomStringConvertible {
    /// What the user gave, or the entry's URI when it came from a playlist.
    public var input: String
    /// The playlist the entry came from, if it did.
    public var playlist: String?
    /// Why it was rejected.
    public var reason: RejectionReason

    /// A rejection of `input`.
    public init(input: String, playlist: String? = nil, reason: RejectionReason) {
        self.input = input
        self.playlist = playlist
        self.reason = reason
    }

    /// `input: reason`.
    public var description: String {
        "\(input)\(playlist.map { " (from \($0))" } ?? ""): \(reason)"
    }
}

/// The outcome of resolving a list of inputs.
public struct Resolution: Sendable, Hashable {
    /// What to play, in order.
    public var items: [PlayableItem] = []
    /// What was left out and why, in input order.
    public var rejections: [Rejection] = []

    /// An empty resolution.
    public init(items: [PlayableItem] = [], rejections: [Rejection] = []) {
        self.items = items
        self.rejections = rejections
    }
}
