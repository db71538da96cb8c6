import Glibc

/// Reads M3U/M3U8, PLS and XSPF playlists into entries with their hints.
///
/// Relative paths resolve against the playlist's directory; `file://` URIs are respelt
/// canonically; other URIs pass through unchanged (the ``MediaResolver`` decides which schemes
/// play). Local entries naming another playlist are expanded in place, up to
/// ``PlaylistLimits/maxNestingDepth`` levels, and references that would loop are skipped. Every
/// line that cannot be used becomes a ``PlaylistProblem``; only a top-level playlist that cannot
/// be read at all throws.
public struct PlaylistParser: Sendable {
    /// The caps applied while reading.
    public var limits: PlaylistLimits

    /// A parser with `limits`.
    public init(limits: PlaylistLimits = PlaylistLimits()) {
        self.limits = limits
    }

    /// Whether `path`'s extension is one of ``PlaylistFormat/fileExtensions``.
    public static func isPlaylist(path: String) -> Bool {
        PlaylistFormat(fileExtension: fileExtension(of: path)) != nil
    }

    /// The entries of the playlist file at the absolute `path`, nested playlists expanded.
    public func parse(contentsOf path: String) throws(PlaylistError) -> ParsedPlaylist {
        var result = ParsedPlaylist()
        var expansion = Expansion(limits: limits)
        try expansion.expand(path: FileURI.normalized(path), depth: 1, into: &result)
        return result
    }

    /// The entries of playlist `text` in `format`, resolving relative entries against
    /// `baseDirectory`; nested playlists are not expanded. `source` names the playlist in problems.
    public func parse(text: String, format: PlaylistFormat, baseDirectory: String, source: String) -> ParsedPlaylist {
        var result = ParsedPlaylist()
        let raw = Self.rawEntries(of: text, format: format, limit: limits.maxEntries)
        for problem in raw.problems {
            result.problems.append(PlaylistProblem(playlist: source, line: problem.line, error: problem.error))
        }
        for entry in raw.entries {
            switch resolve(entry, baseDirectory: baseDirectory) {
            case .success(let resolved): result.entries.append(resolved)
            case .failure(let error): result.problems.append(PlaylistProblem(playlist: source, line: entry.line, error: error))
            case nil: break
            }
        }
        if raw.truncated {
            result.problems.append(PlaylistProblem(playlist: source, error: .tooManyEntries(limit: limits.maxEntries)))
        }
        return result
    }

    public static func rawEntries(of text: String, format: PlaylistFormat, limit: Int) -> RawPlaylist {
        switch format {
        case .m3u: M3UReader.read(text, limit: limit)
        case .pls: PLSReader.read(text, limit: limit)
        case .xspf: XSPFReader.read(text, limit: limit)
        }
    }

    /// The entry for `raw`, an error saying why it is unusable, or nil for a blank location.
    public func resolve(_ raw: RawEntry, baseDirectory: String) -> Result<PlaylistEntry, PlaylistError>? {
        let location = raw.location.trimmingWhitespace()
        guard !location.isEmpty else { return nil }
        guard location.utf8.count <= limits.maxURILength else {
            return .failure(.uriTooLong(length: location.utf8.count, limit: limits.maxURILength))
        }
        guard !location.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return .failure(.malformed("entry contains control characters"))
        }
        let uri: String
        if let scheme = FileURI.scheme(of: location) {
            if scheme == "file" {
                // The same rule as every other way in (MediaAdmissionRule): this machine only, no
                // query or fragment, escapes decoded to bytes so non-UTF-8 names still resolve.
                switch MediaAddress.parse(uri: location, maxLength: limits.maxURILength) {
                case .success(let address): uri = address.uri
                case .failure(let refusal): return .failure(.malformed("\(location): \(refusal)"))
                }
            } else {
                uri = location
            }
        } else {
            // XSPF locations are URI references, so their relative paths are percent-encoded;
            // M3U and PLS paths are literal. Backslashes come from playlists made on Windows.
            let bytes = raw.isURIReference ? FileURI.percentDecodedBytes(location) : Array(location.utf8)
            guard let bytes else { return .failure(.malformed("entry contains an escaped NUL")) }
            let path = bytes.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 }
            let absolute = path.first == UInt8(ascii: "/") ? path : Array(baseDirectory.utf8) + [UInt8(ascii: "/")] + path
            guard let local = LocalPath(absolute: absolute) else { return .failure(.malformed("entry contains a NUL")) }
            uri = local.uri
        }
        return .success(PlaylistEntry(
            uri: uri, title: raw.title.nonEmpty, artist: raw.artist.nonEmpty,
            durationMicroseconds: raw.durationMicroseconds))
    }

    public static func fileExtension(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}

/// Expands nested playlists depth-first, remembering which files are being read to spot loops.
private struct Expansion {
    let limits: PlaylistLimits
    var open: Set<String> = []
    var truncated = false

    init(limits: PlaylistLimits) {
        self.limits = limits
    }

    mutating func expand(path: String, depth: Int, into result: inout ParsedPlaylist) throws(PlaylistError) {
        guard let format = PlaylistFormat(fileExtension: PlaylistParser.fileExtension(of: path)) else {
            throw .unknownFormat(path: path)
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.read(path, limit: limits.maxFileSize)
        } catch {
            throw .file(error)
        }
        let text: String
        do {
            text = try TextDecoding.decode(bytes)
        } catch {
            throw .notText(path: path)
        }
        // Symlinks and different spellings of one file must be recognised as the same playlist.
        let identity = Self.canonicalPath(path)
        open.insert(identity)
        defer { open.remove(identity) }

        let parser = PlaylistParser(limits: limits)
        let directory = FileURI.normalized(path + "/..")
        let remaining = limits.maxEntries - result.entries.count
        let raw = PlaylistParser.rawEntries(of: text, format: format, limit: max(0, remaining))
        for problem in raw.problems {
            result.problems.append(PlaylistProblem(playlist: path, line: problem.line, error: problem.error))
        }
        for rawEntry in raw.entries {
            guard !truncated else { return }
            guard let resolved = parser.resolve(rawEntry, baseDirectory: directory) else { continue }
            switch resolved {
            case .failure(let error):
                result.problems.append(PlaylistProblem(playlist: path, line: rawEntry.line, error: error))
            case .success(let entry):
                if let nested = FileURI.path(fromURI: entry.uri), PlaylistParser.isPlaylist(path: nested) {
                    expandNested(nested, from: path, line: rawEntry.line, depth: depth + 1, into: &result)
                } else if result.entries.count >= limits.maxEntries {
                    markTruncated(in: path, into: &result)
                } else {
                    result.entries.append(entry)
                }
            }
        }
        if raw.truncated { markTruncated(in: path, into: &result) }
    }

    private mutating func expandNested(
        _ nested: String, from parent: String, line: Int?, depth: Int, into result: inout ParsedPlaylist
    ) {
        let problem: PlaylistError
        if open.contains(Self.canonicalPath(nested)) {
            problem = .cycle(path: nested)
        } else if depth > limits.maxNestingDepth {
            problem = .nestingTooDeep(path: nested, limit: limits.maxNestingDepth)
        } else {
            do {
                try expand(path: nested, depth: depth, into: &result)
                return
            } catch {
                problem = error
            }
        }
        result.problems.append(PlaylistProblem(playlist: parent, line: line, error: problem))
    }

    private mutating func markTruncated(in path: String, into result: inout ParsedPlaylist) {
        guard !truncated else { return }
        truncated = true
        result.problems.append(PlaylistProblem(playlist: path, error: .tooManyEntries(limit: limits.maxEntries)))
    }

    private static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// An entry as a format reader found it, before its location is resolved.
public struct RawEntry {
    public var location: String
    public var line: Int?
    public var title: String?
    public var artist: String?
    public var durationMicroseconds: Int64?
    /// Whether `location` is a URI reference (percent-encoded) rather than a literal path.
    public var isURIReference = false
}

/// What a format reader found in one playlist's text.
public struct RawPlaylist {
    public var entries: [RawEntry] = []
    public var problems: [(line: Int?, error: PlaylistError)] = []
    /// Whether reading stopped at the entry limit.
    public var truncated = false
}

extension StringProtocol {
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    public func replacingBackslashes() -> String {
        String(map { $0 == "\\" ? "/" : $0 })
    }
}

extension Optional where Wrapped == String {
    public var nonEmpty: String? {
        guard let trimmed = self?.trimmingWhitespace(), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
