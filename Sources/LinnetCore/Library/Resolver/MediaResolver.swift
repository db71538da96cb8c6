public import LibraryFormats
import EventLoop
import FoundationEssentials
import Glibc
import Logging
public import Playback

/// Turns what a user gives — paths, `file://` and http(s) URIs, folders, playlists — into an
/// ordered list of things to play, and says why anything else was left out.
///
/// Folders are searched recursively for ``supportedExtensions`` (hidden entries skipped,
/// symlinks followed but never around a loop). Within a folder, files play by disc number, then
/// track number (read with the ``MetadataScanner``; untagged discs count as disc 1, untagged
/// tracks come after tagged ones), then file name in natural order ("2 x" before "10 x"); the
/// folder's subfolders follow in natural name order. Folders holding more than
/// ``Limits/maxTagOrderedFiles`` files in all are ordered by name only. Playlist files found inside folders are not
/// expanded: a folder means "its music", and a playlist there usually duplicates it.
/// Playlists given directly are expanded with their hints.
public struct MediaResolver: Sendable {
    /// Audio file name extensions (lower case) played from folders and accepted as files.
    public static let supportedExtensions: Set<String> = MediaAdmissionRule.audioExtensions
    /// URI schemes accepted: local files and http(s) streams.
    public static let supportedSchemes: Set<String> = ["file", "http", "https"]

    /// Caps on what one resolution may produce.
    public struct Limits: Sendable, Hashable {
        /// Most items returned; the rest are rejected with ``RejectionReason/tooManyItems(limit:)``.
        public var maxItems: Int
        /// Longest input or entry, in UTF-8 bytes.
        public var maxInputLength: Int
        /// How many folder levels below a given folder are searched.
        public var maxFolderDepth: Int
        /// Caps for playlists.
        public var playlist: PlaylistLimits
        /// Most folder files whose tags are read to order them before anything plays. Reading
        /// tags prerolls a pipeline per file (about 70–190 files/s here), so a whole library
        /// given on the command line kept linnet off the bus for minutes; above this, folders
        /// play in natural name order and the player reads their tags in the background.
        public var maxTagOrderedFiles: Int

        /// The defaults: 100 000 items, 8 KiB inputs, 32 folder levels, default playlist limits,
        /// and tag ordering for up to 256 folder files (a few albums).
        public init(
            maxItems: Int = 100_000, maxInputLength: Int = 8192, maxFolderDepth: Int = 32,
            playlist: PlaylistLimits = PlaylistLimits(), maxTagOrderedFiles: Int = 256
        ) {
            self.maxItems = maxItems
            self.maxInputLength = maxInputLength
            self.maxFolderDepth = maxFolderDepth
            self.playlist = playlist
            self.maxTagOrderedFiles = maxTagOrderedFiles
        }
    }

    /// The caps in force.
    public var limits: Limits
    let scanner: MetadataScanner?
    static let logger = Logger(label: "linnet.library")

    /// A resolver ordering folders with tags read by `scanner`; with no scanner, folders are in
    /// natural name order only.
    public init(scanner: MetadataScanner?, limits: Limits = Limits()) {
        self.scanner = scanner
        self.limits = limits
    }

    /// The playable items and rejections for `inputs`, in input order. Relative paths are taken
    /// from `workingDirectory`; `~` and `~/…` from `home`.
    public func resolve(_ inputs: [String], workingDirectory: String, home: String) async -> Resolution {
        let collector = InputCollector(limits: limits, workingDirectory: workingDirectory, home: home)
        let segments = await Self.offPool { collector.collect(inputs) }
        var resolution = Resolution()
        var pendingFolders: [(index: Int, listing: FolderListing)] = []
        var parts: [[PlayableItem]] = []
        for segment in segments {
            switch segment {
            case .items(let items): parts.append(items)
            case .folder(let listing):
                pendingFolders.append((parts.count, listing))
                parts.append([])
            case .rejection(let rejection):
                resolution.rejections.append(rejection)
            }
        }
        let folderFileCount = pendingFolders.reduce(0) { $0 + $1.listing.fileCount }
        if folderFileCount <= limits.maxTagOrderedFiles {
            let tags = await scanTags(of: pendingFolders.flatMap { Self.allFiles(of: $0.listing).map(\.path) })
            for (index, listing) in pendingFolders {
                parts[index] = Self.ordered(listing, tags: tags)
            }
        } else {
            if scanner != nil {
                Self.logger.notice("""
                    Ordering \(folderFileCount) files by name: reading the tags of more than \
                    \(limits.maxTagOrderedFiles) before playing would take too long
                    """)
            }
            // The walk lists each folder's files in name order, which is then the play order.
            // Known tags come along without ordering by them, so a folder orders the same with or
            // without a cache; entries that come tagged need no scan and no signal later.
            let (scanner, listings) = (scanner, pendingFolders.map(\.listing))
            let named = await Self.offPool { Self.inNameOrder(listings, scanner: scanner) }
            for ((index, _), items) in zip(pendingFolders, named) {
                parts[index] = items
            }
        }
        // Sized once: growing by doubling held a discarded copy of up to 100 000 items at the
        // peak, which the heap then kept.
        resolution.items.reserveCapacity(min(limits.maxItems, parts.reduce(0) { $0 + $1.count }))
        for item in parts.joined() {
            guard resolution.items.count < limits.maxItems else {
                resolution.rejections.append(Rejection(input: item.uri, reason: .tooManyItems(limit: limits.maxItems)))
                break
            }
            resolution.items.append(item)
        }
        let listed = Self.sidecarNames(of: pendingFolders.map(\.listing))
        resolution.items = await Self.offPool { [items = resolution.items] in Self.withSidecarLyrics(items, knownFolders: listed) }
        for rejection in resolution.rejections {
            Self.logger.notice("Not playing \(rejection.input): \(rejection.reason)",
                               metadata: rejection.playlist.map { ["playlist": "\($0)"] })
        }
        return resolution
    }

    /// Whether `path`'s extension is one of ``supportedExtensions``.
    public static func isAudioFile(path: String) -> Bool {
        supportedExtensions.contains(PlaylistParser.fileExtension(of: path))
    }

    /// Runs file-system work on a thread of its own: walking a large library blocks, and Swift's
    /// cooperative pool has only one thread per core.
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "linnet.resolver"
            thread.start()
        }
    }

    /// The lyrics-shaped names of every folder the walks listed, by folder path ending in "/".
    private static func sidecarNames(of listings: [FolderListing]) -> [String: Set<String>] {
        var known: [String: Set<String>] = [:]
        func add(_ listing: FolderListing) {
            if let names = listing.sidecarNames { known[listing.path.hasSuffix("/") ? listing.path : listing.path + "/"] = names }
            listing.subfolders.forEach(add)
        }
        listings.forEach(add)
        return known
    }

    static func allFiles(of listing: FolderListing) -> [FolderFile] {
        listing.files + listing.subfolders.flatMap { allFiles(of: $0) }
    }
}
