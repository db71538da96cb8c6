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

    /// The files of `listing` by disc, track and natural name, then its subfolders' in turn.
    static func ordered(_ listing: FolderListing, tags: [String: ScannedTrack]) -> [PlayableItem] {
        let sorted = listing.files.sorted { lhs, rhs in
            let left = sortKey(tags[lhs]?.metadata), right = sortKey(tags[rhs]?.metadata)
            if left.disc != right.disc { return left.disc < right.disc }
            if left.track != right.track { return left.track < right.track }
            return NaturalOrder.areInIncreasingOrder(fileName(lhs), fileName(rhs))
        }
        let items = sorted.map { PlayableItem(uri: FileURI.uri(forPath: $0), scanned: tags[$0]) }
        return items + listing.subfolders.flatMap { ordered($0, tags: tags) }
    }

    private static func sortKey(_ metadata: TrackMetadata?) -> (disc: Int, track: Int) {
        (metadata?.discNumber ?? 1, metadata?.trackNumber ?? Int.max)
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }
}
