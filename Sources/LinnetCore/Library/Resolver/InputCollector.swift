import LibraryFormats

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
        var segments = SegmentList()
        var budget = limits.maxItems
        for input in inputs {
            resolve(input: input, budget: &budget, into: &segments)
        }
        return segments.finished()
    }

    private func resolve(input: String, budget: inout Int, into segments: inout SegmentList) {
        switch location(of: input) {
        case .failure(let refusal):
            segments.append(.rejection(Rejection(input: input, reason: .refused(refusal))))
        case .success(.stream(let uri)):
            segments.append(PlayableItem(uri: uri))
        case .success(.local(let path)):
            local(path, input: input, entry: nil, playlist: nil, budget: &budget, into: &segments)
        }
    }

    /// Where `text` (an input or a playlist entry) points, or why it cannot be used: a URI by
    /// ``MediaAddress``'s rule, anything else a path (relative to the working directory, `~`
    /// to the home folder).
    private func location(of text: String) -> Result<MediaAddress, MediaRefusal> {
        if let refusal = MediaAdmissionRule.refusalOfText(text, maxLength: limits.maxInputLength) { return .failure(refusal) }
        if FileURI.scheme(of: text) != nil { return MediaAddress.parse(uri: text, maxLength: limits.maxInputLength) }
        var path = text
        if path == "~" || path.hasPrefix("~/") { path = home + path.dropFirst() }
        // No NUL can be here (refusalOfText refused control characters), so this cannot fail.
        guard let local = LocalPath(path.hasPrefix("/") ? path : workingDirectory + "/" + path) else {
            return .failure(.relativeFileURI)
        }
        return .success(.local(local))
    }

    /// The segments for the local `path`: a folder's audio files, or a file admitted by
    /// ``MediaAdmissionRule`` — an audio file, or (when `playlist` is nil, i.e. not already
    /// inside one) a playlist, which is expanded.
    private func local(
        _ path: LocalPath, input: String, entry: PlaylistEntry?, playlist: String?, budget: inout Int,
        into segments: inout SegmentList
    ) {
        func reject(_ refusal: MediaRefusal) {
            segments.append(.rejection(Rejection(input: input, playlist: playlist, reason: .refused(refusal))))
        }
        let facts = LocalFileFacts.inspect(path)
        if facts.kind == .directory, facts.examineError == nil {
            guard !MediaAdmissionRule.isSystemLocation(facts) else { return reject(.systemFile) }
            return folder(path.description, input: input, playlist: playlist, budget: &budget, into: &segments)
        }
        let extensions = playlist == nil
            ? MediaAdmissionRule.audioExtensions.union(PlaylistFormat.fileExtensions) : MediaAdmissionRule.audioExtensions
        if let refusal = MediaAdmissionRule.verdict(on: facts, for: path, extensions: extensions) { return reject(refusal) }
        if PlaylistFormat.fileExtensions.contains(path.fileExtension) {
            return expand(playlist: path.description, input: input, budget: &budget, into: &segments)
        }
        budget -= 1
        segments.append(PlayableItem(
            uri: path.uri, title: entry?.title, artist: entry?.artist, durationMicroseconds: entry?.durationMicroseconds))
    }

    private func folder(_ path: String, input: String, playlist: String?, budget: inout Int, into segments: inout SegmentList) {
        var walker = FolderWalker(
            audioExtensions: MediaResolver.supportedExtensions, maxDepth: limits.maxFolderDepth, maxFiles: max(0, budget))
        let listing = walker.walk(path)
        budget -= walker.fileCount
        for refused in walker.refused {
            segments.append(.rejection(Rejection(input: refused.path, playlist: playlist, reason: .refused(refused.refusal))))
        }
        if walker.reachedFileLimit {
            segments.append(.rejection(Rejection(input: input, playlist: playlist, reason: .tooManyItems(limit: limits.maxItems))))
        }
        if listing.fileCount == 0 {
            segments.append(.rejection(Rejection(input: input, playlist: playlist, reason: .emptyFolder)))
        } else {
            segments.append(.folder(listing))
        }
    }

    private func expand(playlist path: String, input: String, budget: inout Int, into segments: inout SegmentList) {
        let parsed: ParsedPlaylist
        do {
            parsed = try PlaylistParser(limits: limits.playlist).parse(contentsOf: path)
        } catch {
            return segments.append(.rejection(Rejection(input: input, reason: .playlist(error))))
        }
        for problem in parsed.problems {
            segments.append(.rejection(Rejection(input: input, playlist: path, reason: .playlistProblem(problem))))
        }
        segments.reserveItems(parsed.entries.count)
        for entry in parsed.entries {
            switch location(of: entry.uri) {
            case .failure(let refusal):
                segments.append(.rejection(Rejection(input: entry.uri, playlist: path, reason: .refused(refusal))))
            case .success(.stream(let uri)):
                budget -= 1
                segments.append(PlayableItem(
                    uri: uri, title: entry.title, artist: entry.artist, durationMicroseconds: entry.durationMicroseconds))
            case .success(.local(let entryPath)):
                local(entryPath, input: entry.uri, entry: entry, playlist: path, budget: &budget, into: &segments)
            }
        }
    }
}

/// Segments in input order, with consecutive items gathered into one `.items` run: a playlist
/// of 100 000 entries becomes one array instead of 100 000 one-item arrays (~440 bytes each,
/// freed only after the queue was built, so they fragmented the heap under it).
struct SegmentList {
    private var done: [ResolvedSegment] = []
    private var run: [PlayableItem] = []

    /// Adds an item to the current run.
    mutating func append(_ item: PlayableItem) {
        run.append(item)
    }

    /// Makes room for `count` more items in the current run (a playlist's entries).
    mutating func reserveItems(_ count: Int) {
        run.reserveCapacity(run.count + count)
    }

    /// Adds a folder or a rejection after the items so far.
    mutating func append(_ segment: ResolvedSegment) {
        if case .items(let items) = segment { return run.append(contentsOf: items) }
        closeRun()
        done.append(segment)
    }

    /// The segments, the last run closed.
    mutating func finished() -> [ResolvedSegment] {
        closeRun()
        return done
    }

    private mutating func closeRun() {
        guard !run.isEmpty else { return }
        done.append(.items(run))
        run = []
    }
}
