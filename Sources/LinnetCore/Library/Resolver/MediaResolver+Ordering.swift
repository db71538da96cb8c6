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

    /// The items of `listings` (each in its walk's order: files by name, then subfolders), with
    /// the cached tags of as many as ``cacheLookupBudget`` allows, looked up in order by the
    /// size and modification time the walk saw; reads no file.
    static func inNameOrder(_ listings: [FolderListing], scanner: MetadataScanner?) -> [[PlayableItem]] {
        let clock = ContinuousClock()
        let deadline = clock.now + cacheLookupBudget
        var found = 0
        var total = 0
        let parts = listings.map { listing in
            let files = allFiles(of: listing)
            total += files.count
            var items = files.map { PlayableItem(uri: FileURI.uri(forPath: $0.path)) }
            guard let scanner else { return items }
            var start = 0
            while start < files.count, clock.now < deadline {
                let end = min(files.count, start + cacheLookupBatch)
                let identities = files[start..<end].map { file in
                    file.stamp.map { FileIdentity(path: file.path, size: $0.size, modificationTime: $0.modificationTime) }
                }
                let tracks = scanner.cachedResults(items[start..<end].map(\.uri), identities: identities)
                for (offset, track) in tracks.enumerated() where track != nil {
                    items[start + offset].scanned = track
                    found += 1
                }
                start = end
            }
            return items
        }
        if scanner != nil {
            logger.debug("took the cached tags of \(found) of \(total) folder files before publishing the queue")
        }
        return parts
    }

    /// `items` with the lyrics files beside those that come scanned (the others get theirs
    /// when the player scans them).
    /// `knownFolders`: the lyrics-shaped names of folders a walk listed, not listed again.
    static func withSidecarLyrics(_ items: [PlayableItem], knownFolders: [String: Set<String>] = [:]) -> [PlayableItem] {
        var lookup = SidecarLyrics.Lookup(knownFolders: knownFolders)
        return items.map { item in
            guard item.scanned != nil else { return item }
            var item = item
            item.sidecarLyrics = lookup.text(forTrack: item.uri)
            return item
        }
    }

    /// The files of `listing` by disc, track and natural name, then its subfolders' in turn.
    static func ordered(_ listing: FolderListing, tags: [String: ScannedTrack]) -> [PlayableItem] {
        // Keys computed once per file: a comparison that split names anew cost most of a large
        // folder's start.
        let keyed = listing.files.map { file in
            let path = file.path
            let position = sortKey(tags[path]?.metadata)
            return (disc: position.disc, track: position.track, name: NaturalOrder.Key(fileName(path)), path: path)
        }
        let sorted = keyed.sorted { lhs, rhs in
            if lhs.disc != rhs.disc { return lhs.disc < rhs.disc }
            if lhs.track != rhs.track { return lhs.track < rhs.track }
            return lhs.name < rhs.name
        }
        let items = sorted.map { PlayableItem(uri: FileURI.uri(forPath: $0.path), scanned: tags[$0.path]) }
        return items + listing.subfolders.flatMap { ordered($0, tags: tags) }
    }

    private static func sortKey(_ metadata: TrackMetadata?) -> (disc: Int, track: Int) {
        (metadata?.discNumber ?? 1, metadata?.trackNumber ?? Int.max)
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }
}
