import LibraryFormats
import Playback

extension MediaResolver {
    /// Files per scanner call: bounds the tasks and results alive at once for a large library;
    /// the scanner itself bounds how many discoveries run in parallel.
    private static let scanBatchSize = 256

    /// The scanned tags of `paths` by path; files that fail to scan are left out (they sort by
    /// name, and the player reports their error when it reaches them).
    func scanTags(of paths: [String]) async -> [String: ScannedTrack] {
        guard let scanner, !paths.isEmpty else { return [:] }
        var tags: [String: ScannedTrack] = [:]
        var start = 0
        while start < paths.count {
            let batch = Array(paths[start..<min(paths.count, start + Self.scanBatchSize)])
            let results = await scanner.scan(batch.map(FileURI.uri(forPath:)))
            for (path, result) in zip(batch, results) {
                if case .success(let track) = result { tags[path] = track }
            }
            start += batch.count
        }
        Self.logger.debug("read the tags of \(paths.count) folder files to order them; the scanner so far: \(scanner.tally)")
        return tags
    }

    /// Longest a start spends taking tags from the cache before publishing the queue; what is
    /// left is scanned after (a warm 10,000-file folder takes ~60 ms here).
    private static let cacheLookupBudget: Duration = .milliseconds(250)
    /// Files per cache lookup: one query batch, and the step at which the budget is checked.
    private static let cacheLookupBatch = 1024

    /// The cached tags of `paths` by path, looked up in order until ``cacheLookupBudget`` is
    /// spent; reads no file.
    static func cachedTags(of paths: [String], scanner: MetadataScanner) -> [String: ScannedTrack] {
        let clock = ContinuousClock()
        let deadline = clock.now + cacheLookupBudget
        var found: [String: ScannedTrack] = [:]
        var start = 0
        while start < paths.count, clock.now < deadline {
            let batch = paths[start..<min(paths.count, start + cacheLookupBatch)]
            let paths = Array(batch)
            for (path, track) in zip(paths, scanner.cachedResults(paths.map(FileURI.uri(forPath:)), paths: paths)) {
                if let track { found[path] = track }
            }
            start += batch.count
        }
        logger.debug("took the cached tags of \(found.count) of \(paths.count) folder files before publishing the queue")
        return found
    }

    /// `items` with the lyrics files beside those that come scanned (the others get theirs
    /// when the player scans them).
    static func withSidecarLyrics(_ items: [PlayableItem]) -> [PlayableItem] {
        var lookup = SidecarLyrics.Lookup()
        return items.map { item in
            guard item.scanned != nil else { return item }
            var item = item
            item.sidecarLyrics = lookup.text(forTrack: item.uri)
            return item
        }
    }

    /// The files of `listing` by disc, track and natural name, then its subfolders' in turn;
    /// `cached` tags are attached without ordering by them.
    static func ordered(_ listing: FolderListing, tags: [String: ScannedTrack], cached: [String: ScannedTrack] = [:]) -> [PlayableItem] {
        // Keys computed once per file: a comparison that split names anew cost most of a large
        // folder's start.
        let keyed = listing.files.map { path in
            let position = sortKey(tags[path]?.metadata)
            return (disc: position.disc, track: position.track, name: NaturalOrder.Key(fileName(path)), path: path)
        }
        let sorted = keyed.sorted { lhs, rhs in
            if lhs.disc != rhs.disc { return lhs.disc < rhs.disc }
            if lhs.track != rhs.track { return lhs.track < rhs.track }
            return lhs.name < rhs.name
        }
        let items = sorted.map { PlayableItem(uri: FileURI.uri(forPath: $0.path), scanned: tags[$0.path] ?? cached[$0.path]) }
        return items + listing.subfolders.flatMap { ordered($0, tags: tags, cached: cached) }
    }

    private static func sortKey(_ metadata: TrackMetadata?) -> (disc: Int, track: Int) {
        (metadata?.discNumber ?? 1, metadata?.trackNumber ?? Int.max)
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }
}
