/// Why a location may not be played: the vocabulary of ``MediaAdmissionRule``, shared by the
/// command line, playlists and the bus so that one input gets one answer everywhere.
public enum MediaRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Longer than the limit, in UTF-8 bytes.
    case tooLong(length: Int, limit: Int)
    /// Nothing given.
    case empty
    /// Control characters (which no sane name or URI holds, and which forge log lines).
    case controlCharacters
    /// No scheme where a URI was required.
    case notAURI
    /// A scheme other than `file`, `http` and `https`.
    case unsupportedScheme(String)
    /// A `file://` URI naming a host other than this machine (empty or `localhost`).
    case remoteFileHost(String)
    /// A `file://` URI with a query (`?…`) or a fragment (`#…`), which no file name holds.
    case queryOrFragment
    /// A `file:` URI whose path is not absolute.
    case relativeFileURI
    /// A `%00` escape: no path can hold a NUL.
    case escapedNUL
    /// A stream URI without a host.
    case noHost(scheme: String)
    /// Nothing exists at the path.
    case missing
    /// A directory where a file was needed.
    case directory
    /// A FIFO, device or socket (the kind is named).
    case notRegularFile(String)
    /// An entry of `/proc`, `/sys`, `/dev` or another kernel file system: not media, and reading
    /// some of them has effects or reveals secrets.
    case systemFile
    /// Not an audio file (or, where playlists are expanded, a playlist) by its extension.
    case unsupportedExtension(String)
    /// The file exists but this user cannot open it for reading (the system's reason).
    case unreadable(String)

    /// A sentence saying why.
    public var description: String {
        switch self {
        case .tooLong(let length, let limit): "\(length) bytes is longer than the limit of \(limit)"
        case .empty: "empty input"
        case .controlCharacters: "contains control characters"
        case .notAURI: "not a URI"
        case .unsupportedScheme(let scheme): "the URI scheme \"\(scheme)\" is not supported"
        case .remoteFileHost(let host): "a file URI must name this machine (no host or localhost), not \"\(host)\""
        case .queryOrFragment: "a file URI cannot have a query (?…) or a fragment (#…); escape ? and # in file names as %3F and %23"
        case .relativeFileURI: "a file URI needs an absolute path"
        case .escapedNUL: "contains an escaped NUL (%00)"
        case .noHost(let scheme): "a \(scheme) URI needs a host"
        case .missing: "no such file or folder"
        case .directory: "a folder, not a file"
        case .notRegularFile(let kind): "not a regular file (\(kind))"
        case .systemFile: "a /proc, /sys or /dev entry, not media"
        case .unsupportedExtension(let ext): ext.isEmpty ? "no file extension, not a known audio file"
            : "\".\(ext)\" is not a known audio file extension"
        case .unreadable(let reason): "cannot be read (\(reason))"
        }
    }
}
