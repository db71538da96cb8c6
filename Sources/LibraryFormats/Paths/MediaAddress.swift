/// Where a media location points once its spelling passed ``MediaAdmissionRule``'s syntax half:
/// a local file, by its bytes, or an http(s) stream.
public enum MediaAddress: Sendable, Hashable {
    /// A local file (or, on the command line and in playlists, a folder or playlist).
    case local(LocalPath)
    /// An `http` or `https` URI, as given (credentials included: see ``URICredentials``).
    case stream(String)

    /// The URI to queue: the canonical `file://` spelling of a local path, a stream's own.
    public var uri: String {
        switch self {
        case .local(let path): path.uri
        case .stream(let uri): uri
        }
    }

    /// The address `text`, a URI, names; or why it cannot be played.
    ///
    /// `file:` URIs must name this machine (`file:///p`, `file://localhost/p`, or `file:/p`),
    /// carry no query or fragment, and hold an absolute path; their `%XX` escapes decode to
    /// bytes, so a name that is not UTF-8 survives. `http(s)` URIs need a host. Checked here
    /// first: the length against `maxLength` (before any other work) and control characters.
    public static func parse(uri text: String, maxLength: Int) -> Result<MediaAddress, MediaRefusal> {
        if let refusal = MediaAdmissionRule.refusalOfText(text, maxLength: maxLength) { return .failure(refusal) }
        guard let scheme = FileURI.scheme(of: text) else { return .failure(.notAURI) }
        let rest = text.utf8.drop { $0 != UInt8(ascii: ":") }.dropFirst()
        switch scheme {
        case "file": return localFile(Substring(rest))
        case "http", "https":
            guard rest.starts(with: "//".utf8) else { return .failure(.noHost(scheme: scheme)) }
            let authority = rest.dropFirst(2).prefix { !"/?#".utf8.contains($0) }
            // The host is what follows any credentials; an empty one names nothing.
            let host = authority.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false).last ?? []
            guard !host.isEmpty, host.first != UInt8(ascii: ":") else { return .failure(.noHost(scheme: scheme)) }
            return .success(.stream(text))
        default:
            return .failure(.unsupportedScheme(scheme))
        }
    }

    /// The path of a `file:` URI from what follows `file:`.
    private static func localFile(_ rest: Substring) -> Result<MediaAddress, MediaRefusal> {
        var path = rest
        if path.hasPrefix("//") {
            path = path.dropFirst(2)
            let hostEnd = path.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? path.endIndex
            let host = path[..<hostEnd]
            guard host.isEmpty || host.lowercased() == "localhost" else {
                return .failure(.remoteFileHost(String(host)))
            }
            path = path[hostEnd...]
        }
        // `?` and `#` end a URI's path: a file URI that has them means something no file name
        // does (GStreamer and GIO drop them and then miss the file), so it is refused here.
        guard !path.contains("?"), !path.contains("#") else { return .failure(.queryOrFragment) }
        guard path.hasPrefix("/") else { return .failure(.relativeFileURI) }
        guard let bytes = FileURI.percentDecodedBytes(path) else { return .failure(.escapedNUL) }
        guard let local = LocalPath(absolute: bytes) else { return .failure(.relativeFileURI) }
        return .success(.local(local))
    }
}
