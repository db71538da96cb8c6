import LibraryFormats
import Glibc

/// What one input turned into before folders are scanned and ordered.
enum ResolvedSegment: Sendable {
    case items([PlayableItem])
    case folder(FolderListing)
    case rejection(Rejection)
}

/// The blocking half of resolving: classifies each input, reads playlists and walks folders.
struct InputCollector: Sendable {
    let limits: MediaResolver.Limits
    let workingDirectory: String
    let home: String

    func collect(_ inputs: [String]) -> [ResolvedSegment] {
        var segments: [ResolvedSegment] = []
        var budget = limits.maxItems
        for input in inputs {
            segments += resolve(input: input, budget: &budget)
        }
        return segments
    }

    private func resolve(input: String, budget: inout Int) -> [ResolvedSegment] {
        switch location(of: input) {
        case .failure(let reason):
            return [.rejection(Rejection(input: input, reason: reason))]
        case .success(.remote(let uri)):
            return [.items([PlayableItem(uri: uri)])]
        case .success(.local(let path)):
            return local(path, input: input, entry: nil, playlist: nil, budget: &budget)
        }
    }

    private enum Location {
        case local(String)
        case remote(String)
    }

    /// Where `text` (an input or a playlist entry) points, or why it cannot be used.
    private func location(of text: String) -> Result<Location, RejectionReason> {
        guard text.utf8.count <= limits.maxInputLength else {
            return .failure(.tooLong(length: text.utf8.count, limit: limits.maxInputLength))
        }
        guard !text.isEmpty else { return .failure(.invalid("empty input")) }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return .failure(.invalid("contains control characters"))
        }
        if let scheme = FileURI.scheme(of: text) {
            guard MediaResolver.supportedSchemes.contains(scheme) else { return .failure(.unsupportedScheme(scheme)) }
            if scheme == "file" {
                guard let path = FileURI.path(fromURI: text) else { return .failure(.invalid("not a local file URI")) }
                return .success(.local(path))
            }
            let rest = text.drop { $0 != ":" }.dropFirst()
            guard rest.hasPrefix("//"), let host = rest.dropFirst(2).split(separator: "/").first, !host.isEmpty else {
                return .failure(.invalid("a \(scheme) URI needs a host"))
            }
            return .success(.remote(text))
        }
        var path = text
        if path == "~" || path.hasPrefix("~/") { path = home + path.dropFirst() }
        return .success(.local(FileURI.absolute(path, relativeTo: workingDirectory)))
    }

    /// The segments for the local `path`: a file, a folder, or (when `playlist` is nil, i.e. not
    /// already inside one) a playlist.
    private func local(
        _ path: String, input: String, entry: PlaylistEntry?, playlist: String?, budget: inout Int
    ) -> [ResolvedSegment] {
        func reject(_ reason: RejectionReason) -> [ResolvedSegment] {
            [.rejection(Rejection(input: input, playlist: playlist, reason: reason))]
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? reject(.missing) : reject(.unreadable(String(cString: strerror(errno))))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            var walker = FolderWalker(
                audioExtensions: MediaResolver.supportedExtensions, maxDepth: limits.maxFolderDepth, maxFiles: max(0, budget))
            let listing = walker.walk(path)
            budget -= walker.fileCount
            var segments: [ResolvedSegment] = walker.unreadable.map {
                .rejection(Rejection(input: $0.path, playlist: playlist, reason: .unreadable($0.reason)))
            }
            if walker.reachedFileLimit {
                segments.append(.rejection(Rejection(input: input, playlist: playlist, reason: .tooManyItems(limit: limits.maxItems))))
            }
            if listing.fileCount == 0 {
                segments += reject(.emptyFolder)
            } else {
                segments.append(.folder(listing))
            }
            return segments
        case S_IFREG:
            break
        default:
            return reject(.notRegularFile)
        }
        let ext = PlaylistParser.fileExtension(of: path)
        let isPlaylist = PlaylistFormat.fileExtensions.contains(ext)
        guard MediaResolver.supportedExtensions.contains(ext) || (isPlaylist && playlist == nil) else {
            return reject(.unsupportedExtension(ext))
        }
        // Opening proves readability where permission bits alone would not (ACLs, root squash).
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return reject(.unreadable(String(cString: strerror(errno)))) }
        close(fd)
        if isPlaylist { return expand(playlist: path, input: input, budget: &budget) }
        budget -= 1
        return [.items([PlayableItem(
            uri: FileURI.uri(forPath: path), title: entry?.title, artist: entry?.artist,
            durationMicroseconds: entry?.durationMicroseconds)])]
    }

    private func expand(playlist path: String, input: String, budget: inout Int) -> [ResolvedSegment] {
        let parsed: ParsedPlaylist
        do {
            parsed = try PlaylistParser(limits: limits.playlist).parse(contentsOf: path)
        } catch {
            return [.rejection(Rejection(input: input, reason: .playlist(error)))]
        }
        var segments: [ResolvedSegment] = parsed.problems.map {
            .rejection(Rejection(input: input, playlist: path, reason: .playlistProblem($0)))
        }
        for entry in parsed.entries {
            switch location(of: entry.uri) {
            case .failure(let reason):
                segments.append(.rejection(Rejection(input: entry.uri, playlist: path, reason: reason)))
            case .success(.remote(let uri)):
                budget -= 1
                segments.append(.items([PlayableItem(
                    uri: uri, title: entry.title, artist: entry.artist, durationMicroseconds: entry.durationMicroseconds)]))
            case .success(.local(let entryPath)):
                segments += local(entryPath, input: entry.uri, entry: entry, playlist: path, budget: &budget)
            }
        }
        return segments
    }
}
