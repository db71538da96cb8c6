import LibraryFormats
import Glibc

/// The audio files of one folder and, in natural name order, its subfolders.
struct FolderListing: Sendable {
    var path: String
    /// Absolute paths of the audio files directly in the folder, in no particular order yet.
    var files: [String] = []
    var subfolders: [FolderListing] = []

    var fileCount: Int { files.count + subfolders.reduce(0) { $0 + $1.fileCount } }
}

/// Walks a folder tree for audio files, following symlinks but never into a directory it is
/// already inside or has seen (so symlink loops and repeated links end), skipping hidden
/// entries, and stopping at a depth and a file-count cap. Every file found passes
/// ``MediaAdmissionRule`` like any other input: a link to `/proc/self/environ` named `x.ogg`
/// is refused here too.
struct FolderWalker {
    let audioExtensions: Set<String>
    let maxDepth: Int
    let maxFiles: Int
    private(set) var fileCount = 0
    private(set) var reachedFileLimit = false
    /// Subfolders that could not be listed and audio files the rule refused, with the reason.
    private(set) var refused: [(path: String, refusal: MediaRefusal)] = []
    private var visited: Set<DirectoryIdentity> = []

    private struct DirectoryIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    init(audioExtensions: Set<String>, maxDepth: Int, maxFiles: Int) {
        self.audioExtensions = audioExtensions
        self.maxDepth = maxDepth
        self.maxFiles = maxFiles
    }

    /// The listing of `path`, an existing directory.
    mutating func walk(_ path: String) -> FolderListing {
        var info = stat()
        guard stat(path, &info) == 0 else { return FolderListing(path: path) }
        return walk(path, identity: Self.identity(info), depth: 0)
    }

    private mutating func walk(_ path: String, identity: DirectoryIdentity, depth: Int) -> FolderListing {
        var listing = FolderListing(path: path)
        guard visited.insert(identity).inserted else { return listing }
        let names: [String]
        switch Self.names(in: path) {
        case .success(let found): names = found
        case .failure(let error):
            refused.append((path, .unreadable(error.reason)))
            return listing
        }
        var subfolders: [(name: String, path: String, identity: DirectoryIdentity)] = []
        // The folder's own symlinks resolved once, on its first audio file, for all of them.
        var canonicalFolder: LocalPath??
        func facts(of file: LocalPath) -> LocalFileFacts {
            if canonicalFolder == nil { canonicalFolder = .some(LocalPath(path).flatMap(LocalFileFacts.canonicalPath(of:))) }
            guard case .some(.some(let folder)) = canonicalFolder else { return LocalFileFacts.inspect(file) }
            return LocalFileFacts.inspect(file, inCanonicalFolder: folder)
        }
        // Name order, so that when the file cap cuts a folder the files kept are predictable.
        for name in NaturalOrder.sorted(names) where !name.hasPrefix(".") {
            let child = path == "/" ? "/" + name : path + "/" + name
            var info = stat()
            // stat, not lstat: a symlinked album folder or file is meant to be played. Dangling
            // links fail here and are skipped.
            guard stat(child, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // A link into /proc, /sys or /dev holds no music and can be vast: not entered.
                guard !LocalFileFacts.isSystemDevice(UInt64(info.st_dev)) else { continue }
                subfolders.append((name, child, Self.identity(info)))
            case S_IFREG:
                guard audioExtensions.contains(PlaylistParser.fileExtension(of: name)) else { continue }
                if let local = LocalPath(child),
                   let refusal = MediaAdmissionRule.verdict(on: facts(of: local), for: local, extensions: audioExtensions) {
                    refused.append((child, refusal))
                    continue
                }
                guard fileCount < maxFiles else {
                    reachedFileLimit = true
                    continue
                }
                fileCount += 1
                listing.files.append(child)
            default:
                continue
            }
        }
        guard depth < maxDepth else { return listing }
        for subfolder in subfolders {
            listing.subfolders.append(walk(subfolder.path, identity: subfolder.identity, depth: depth + 1))
        }
        return listing
    }

    private static func identity(_ info: stat) -> DirectoryIdentity {
        DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    struct ListingError: Error {
        let reason: String
    }

    /// The entry names of a directory, with `errno`'s text when it cannot be listed.
    /// Names that are not UTF-8 are repaired by decoding and will then not be found.
    static func names(in path: String) -> Result<[String], ListingError> {
        guard let directory = opendir(path) else {
            return .failure(ListingError(reason: String(cString: strerror(errno))))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }
}
