import Dispatch
import LibraryFormats
import Glibc

/// The audio files of one folder and, in natural name order, its subfolders.
struct FolderListing: Sendable {
    var path: String
    /// The audio files directly in the folder, in natural name order.
    var files: [FolderFile] = []
    var subfolders: [FolderListing] = []
    /// The folder's entries shaped like lyrics files (``SidecarLyrics/isSidecarShaped(_:)``),
    /// gathered while listing it; nil when it was not listed (unreadable, or already walked).
    var sidecarNames: Set<String>?

    var fileCount: Int { files.count + subfolders.reduce(0) { $0 + $1.fileCount } }
}

/// An audio file a walk admitted, with the size and modification time it saw: a tag cache's key,
/// so the file need not be examined again to look its tags up.
struct FolderFile: Sendable, Hashable {
    /// The absolute path.
    var path: String
    /// nil only if the file could not be examined after it was opened (then the cache is not asked).
    var stamp: LocalFileFacts.Stamp?
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

    /// A folder entry worth examining, with the kind `readdir` gave (`DT_UNKNOWN` on file systems
    /// that do not say).
    private struct Entry {
        let name: String
        let type: Int32
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
        guard let directory = opendir(path) else {
            refused.append((path, .unreadable(String(cString: strerror(errno)))))
            return listing
        }
        defer { closedir(directory) }
        // Entries are looked up relative to the folder (one name for the kernel to resolve, not
        // the whole path), through the listing's own descriptor.
        let descriptor = dirfd(directory)
        // The folder's own symlinks resolved once, on its first audio file, for all of them.
        var openFolder: LocalFileFacts.OpenFolder?
        func folder() -> LocalFileFacts.OpenFolder {
            if let openFolder { return openFolder }
            let opened = LocalFileFacts.OpenFolder(
                descriptor: descriptor, canonicalPath: LocalPath(path).flatMap(LocalFileFacts.canonicalPath(of:)))
            openFolder = opened
            return opened
        }
        let folderPath = LocalPath(path)
        var subfolders: [(name: String, path: String, identity: DirectoryIdentity)] = []
        // Name order, so that when the file cap cuts a folder the files kept are predictable.
        // Keys made once per name (and the sort specialised here, not NaturalOrder's generic one).
        let (found, sidecarNames) = entries(of: directory)
        listing.sidecarNames = sidecarNames
        let sorted = found.map { (key: NaturalOrder.Key($0.name), entry: $0) }.sorted { $0.key < $1.key }.map(\.entry)
        let plainFacts = Self.examinePlainFiles(
            sorted, in: path, folderPath: folderPath, folder: sorted.contains { $0.type == Int32(DT_REG) } ? folder() : nil)
        for (entry, examined) in zip(sorted, plainFacts) {
            let child = path == "/" ? "/" + entry.name : path + "/" + entry.name
            if entry.type == Int32(DT_REG) {
                // A plain file (its extension already checked), examined once by the rule's
                // inspection, whose stamp is the cache's key.
                // Gone, or not examinable: skipped like any entry whose stat fails.
                guard let examined, examined.facts.kind != .missing else { continue }
                admit(child, local: examined.path, facts: examined.facts, into: &listing)
                continue
            }
            var info = stat()
            // Followed, not lstat: a symlinked album folder or file is meant to be played.
            // Dangling links fail here and are skipped.
            guard fstatat(descriptor, entry.name, &info, 0) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // A link into /proc, /sys or /dev holds no music and can be vast: not entered.
                guard !LocalFileFacts.isSystemDevice(UInt64(info.st_dev)) else { continue }
                subfolders.append((entry.name, child, Self.identity(info)))
            case S_IFREG:
                guard audioExtensions.contains(Self.fileExtension(ofName: entry.name)), let local = LocalPath(child) else {
                    continue
                }
                let facts = folder().canonicalPath.map { LocalFileFacts.inspect(local, inCanonicalFolder: $0) }
                    ?? LocalFileFacts.inspect(local)
                admit(child, local: local, facts: facts, into: &listing)
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

    /// Plain files at least this many in one folder are examined on two threads: the
    /// examination is two system calls per file (~6 µs here), and early in a start the other
    /// core mostly waits.
    private static let parallelExaminationThreshold = 512

    /// The rule's facts for each plain file (`DT_REG`) among `entries`, by position (nil for the
    /// other entries), examined relative to `folder`; judged afterwards, in order, by the caller.
    private static func examinePlainFiles(
        _ entries: [Entry], in path: String, folderPath: LocalPath?, folder: LocalFileFacts.OpenFolder?
    ) -> [(path: LocalPath, facts: LocalFileFacts)?] {
        var results = [(path: LocalPath, facts: LocalFileFacts)?](repeating: nil, count: entries.count)
        guard let folder else { return results }
        let plain = entries.indices.filter { entries[$0].type == Int32(DT_REG) }
        @Sendable func examine(_ index: Int) -> (path: LocalPath, facts: LocalFileFacts)? {
            let name = entries[index].name
            guard let local = folderPath?.appending(entry: name) ?? LocalPath(path == "/" ? "/" + name : path + "/" + name) else {
                return nil
            }
            return (local, LocalFileFacts.inspect(entry: name, of: folder, path: local))
        }
        let workers = plain.count >= parallelExaminationThreshold ? 2 : 1
        guard workers > 1 else {
            for index in plain { results[index] = examine(index) }
            return results
        }
        results.withUnsafeMutableBufferPointer { buffer in
            let slots = DisjointSlots(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let share = (plain.count + workers - 1) / workers
                for index in plain[min(plain.count, worker * share)..<min(plain.count, (worker + 1) * share)] {
                    slots.buffer[index] = examine(index)
                }
            }
        }
        return results
    }

    /// Positions of one buffer written from several threads, each position by exactly one
    /// (its worker's contiguous share), and read only after all have finished.
    private struct DisjointSlots<Element>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Element>
    }

    /// Adds the file at `path` to `listing` if the rule admits it and the cap allows; otherwise
    /// notes why not.
    private mutating func admit(_ path: String, local: LocalPath, facts: LocalFileFacts, into listing: inout FolderListing) {
        if let refusal = MediaAdmissionRule.verdict(on: facts, for: local, extensions: audioExtensions) {
            refused.append((path, refusal))
            return
        }
        guard fileCount < maxFiles else {
            reachedFileLimit = true
            return
        }
        fileCount += 1
        listing.files.append(FolderFile(path: path, stamp: facts.stamp))
    }

    /// The entries of `directory` that may hold music: not hidden, and not a file of another
    /// kind or extension (which `readdir` can tell without a system call per entry); and the
    /// names shaped like lyrics files, so the lyrics lookup need not list the folder again.
    private func entries(of directory: OpaquePointer) -> (entries: [Entry], sidecarNames: Set<String>) {
        var entries: [Entry] = []
        var sidecarNames: Set<String> = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if SidecarLyrics.isSidecarShaped(name) { sidecarNames.insert(name) }
            guard !name.hasPrefix(".") else { continue }
            let type = Int32(entry.pointee.d_type)
            switch type {
            case Int32(DT_REG):
                guard audioExtensions.contains(Self.fileExtension(ofName: name)) else { continue }
            case Int32(DT_FIFO), Int32(DT_CHR), Int32(DT_BLK), Int32(DT_SOCK):
                continue
            default:
                break
            }
            entries.append(Entry(name: name, type: type))
        }
        return (entries, sidecarNames)
    }

    /// The lower-case extension of an entry's name, as ``PlaylistParser/fileExtension(of:)``
    /// gives it, found by bytes: asked once per entry of every folder walked.
    private static func fileExtension(ofName name: String) -> String {
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else { return "" }
        return String(name[utf8.index(after: dot)...]).lowercased()
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
