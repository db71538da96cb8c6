/// Credentials in URIs (`http://user:password@host/…`): kept for the request that needs them,
/// removed from everything linnet shows, saves or logs.
///
/// Removal drops the whole user-info part (user name too: it identifies the account), leaving
/// `http://host/…`.
public enum URICredentials {
    /// Whether `uri` carries user information before its host.
    public static func present(in uri: String) -> Bool {
        userInfoRange(in: Substring(uri)) != nil
    }

    /// `uri` without the user information before its host; unchanged when there is none.
    public static func removed(from uri: String) -> String {
        // Every row GetTracksMetadata writes passes here: a URI without "@" (nearly all) is
        // settled by one pass over its contiguous bytes, not the Substring's generic view.
        var text = uri
        guard text.withUTF8({ $0.contains(UInt8(ascii: "@")) }),
              let range = userInfoRange(in: Substring(uri)) else { return uri }
        var stripped = uri
        stripped.removeSubrange(range)
        return stripped
    }

    /// `text` (a log line, an error message) with the user information of every URI in it
    /// removed: anything of the form `scheme://…@` up to the first `/`, `?`, `#`, quote or
    /// white space after the `//`.
    public static func scrubbed(_ text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var result = Substring()
        var rest = Substring(text)
        while let marker = rest.firstRange(of: "://") {
            result += rest[..<marker.upperBound]
            rest = rest[marker.upperBound...]
            let authorityEnd = rest.firstIndex(where: isAuthorityEnd) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                rest = rest[rest.index(after: at)...]
            }
        }
        result += rest
        return String(result)
    }

    /// The range of `userinfo@` right after `scheme://` in `uri`, if any.
    private static func userInfoRange(in uri: Substring) -> Range<String.Index>? {
        // Credentials end in "@": without one (nearly every URI) a byte scan settles it, before
        // any Character-level parsing. Every published track's URI passes through here.
        guard uri.utf8.contains(UInt8(ascii: "@")) else { return nil }
        guard let scheme = FileURI.scheme(of: String(uri)), let marker = uri.firstRange(of: "://"),
              uri[..<marker.lowerBound].lowercased() == scheme else { return nil }
        let authority = uri[marker.upperBound...]
        let authorityEnd = authority.firstIndex(where: isAuthorityEnd) ?? authority.endIndex
        guard let at = authority[..<authorityEnd].lastIndex(of: "@") else { return nil }
        return marker.upperBound..<authority.index(after: at)
    }

    private static func isAuthorityEnd(_ character: Character) -> Bool {
        character == "/" || character == "?" || character == "#" || character == "\"" || character == "'"
            || character == "<" || character == ">" || character.isWhitespace
    }
}
