/// Conversions between local paths and `file://` URIs, and the lexical path clean-up every
/// component needs, kept in one place so that every URI linnet produces for a file is spelled
/// the same way (the queue, the TrackList and the state file compare URIs as strings).
public enum FileURI {
    /// The `file://` URI of an absolute `path`.
    ///
    /// Escapes like GLib's `g_filename_to_uri`, which GStreamer uses, so URIs made here equal the
    /// ones GStreamer reports back.
    public static func uri(forPath path: String) -> String {
        uri(forPathBytes: Array(path.utf8))
    }

    /// The `file://` URI of the absolute path `bytes`, which need not be UTF-8 (Linux file names
    /// are bytes): every byte outside the unescaped set is written `%XX`.
    public static func uri(forPathBytes bytes: [UInt8]) -> String {
        // Built as bytes and decoded once: appending to a String a scalar at a time cost a large
        // folder's start ~3 % of its CPU.
        var encoded: [UInt8] = Array("file://".utf8)
        encoded.reserveCapacity(7 + bytes.count + bytes.count / 4)
        for byte in bytes {
            if isUnescapedInPath(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            }
        }
        // Every byte written is ASCII.
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The local path a `file:` URI names, or nil when ``MediaAddress`` refuses it (another
    /// host, a query or fragment, an escaped NUL) or it is not a file URI.
    ///
    /// Accepts `file:///p`, `file://localhost/p` and the sloppy `file:/p`. A name that is not
    /// UTF-8 comes back repaired (U+FFFD) and so names another file: use
    /// ``MediaAddress/parse(uri:maxLength:)`` where the file must be found.
    public static func path(fromURI uri: String) -> String? {
        guard case .success(.local(let path)) = MediaAddress.parse(uri: uri, maxLength: .max) else { return nil }
        return path.description
    }

    /// `text` with `%XX` escapes decoded, or nil when an escape decodes to NUL (which no path
    /// can hold). Malformed escapes are kept literally, as hand-written playlists contain them.
    /// Bytes that are not UTF-8 are repaired: see ``percentDecodedBytes(_:)``.
    public static func percentDecoded<S: StringProtocol>(_ text: S) -> String? {
        percentDecodedBytes(text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes `text` stands for with `%XX` escapes decoded, or nil when an escape decodes to
    /// NUL. Malformed escapes are kept literally.
    public static func percentDecodedBytes<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                let byte = high << 4 | low
                guard byte != 0 else { return nil }
                bytes.append(byte)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }

    /// The URI scheme of `text` in lower case, or nil when `text` does not start with one.
    ///
    /// A single letter before the colon is a Windows drive (`C:\Music`), not a scheme.
    public static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        guard candidate.unicodeScalars.count >= 2, let first = candidate.unicodeScalars.first,
              ("a"..."z").contains(first) || ("A"..."Z").contains(first),
              candidate.unicodeScalars.allSatisfy({ isSchemeCharacter($0) }) else { return nil }
        return candidate.lowercased()
    }

    /// `path` with `.` and `..` components and repeated slashes removed, without touching the
    /// file system: symlinked paths stay as the user spelt them.
    public static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
                continue
            }
            parts.append(part)
        }
        // Joined by hand: `joined(separator:)` (and `+=` of a Substring) run unspecialised from
        // the standard library and look up a Collection conformance at run time, a scan of every
        // conformance in the process, before the bus name.
        var joined = ""
        for part in parts {
            if !joined.isEmpty { joined += "/" }
            joined.append(contentsOf: part)
        }
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// `path` made absolute against `directory` (itself absolute) and normalised.
    public static func absolute(_ path: String, relativeTo directory: String) -> String {
        normalized(path.hasPrefix("/") ? path : directory + "/" + path)
    }

    private static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "+" || scalar == "-" || scalar == "."
    }

    /// RFC 3986 unreserved characters plus the sub-delimiters (but `;`), `:`, `@` and `/`: what
    /// GLib leaves alone in the path of a file URI (checked against `gio info`).
    private static func isUnescapedInPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: ":"),
             UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 48 + value : 55 + value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
