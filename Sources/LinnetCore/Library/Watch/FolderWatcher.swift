import Glibc
import Synchronization

/// What changed in watched folders since the last report, by absolute path.
struct FolderChanges: Sendable, Hashable {
    /// Files written and closed, or moved in (alone or inside a folder moved in).
    var written: Set<String> = []
    /// Files deleted or moved away.
    var removed: Set<String> = []
    /// Folders created or moved in, now watched too (their files are in ``written``).
    var newFolders: Set<String> = []
    /// Folders deleted or moved away, no longer watched (their files stay in the cache: a move
    /// keeps size and modification time, so a folder moved back is answered from it).
    var goneFolders: Set<String> = []

    var isEmpty: Bool { written.isEmpty && removed.isEmpty && newFolders.isEmpty && goneFolders.isEmpty }
}

/// Watches folders with inotify on a thread of its own that sleeps in `poll` until the kernel
/// reports something (no timer, no polling), and hands each read's changes to the handler on
/// that thread. Watches the folders given, and every folder later created or moved into a
/// watched one (walking it for its files and subfolders), at most ``maxFolders``.
final class FolderWatcher: Sendable {
    /// Most folders watched: each costs a kernel watch from the user's inotify budget
    /// (fs.inotify.max_user_watches, 8192 or more), which other programs share.
    static let maxFolders = 1024

    struct State: ~Copyable {
        var inotify: Int32 = -1
        /// A pipe whose write end wakes the thread to stop (eventfd is not in the Glibc module).
        var wake: (read: Int32, write: Int32) = (-1, -1)
        /// Watch descriptor → folder, and back. A folder moved within the tree keeps its watch
        /// descriptor in the kernel, under a path that is no longer right: such watches are
        /// removed at the move and the folder is watched afresh under its new path.
        var folders: [Int32: String] = [:]
        var descriptors: [String: Int32] = [:]
        var isStopped = false
        var refusedWarned = false
        var limitWarned = false
    }

    struct Handlers {
        let onChange: @Sendable (FolderChanges) -> Void
        let onProblem: @Sendable (String) -> Void
    }

    let state = Mutex(State())
    let handlers = Mutex<Handlers?>(nil)

    init() {}

    /// Sets who hears of changes (on the watcher's thread) and of problems; before ``watch(_:)``.
    func setHandlers(onChange: @escaping @Sendable (FolderChanges) -> Void, onProblem: @escaping @Sendable (String) -> Void) {
        handlers.withLock { $0 = Handlers(onChange: onChange, onProblem: onProblem) }
    }

    /// Starts watching `folders` (those not watched yet); the thread starts with the first.
    /// Returns how many folders are newly watched.
    @discardableResult
    func watch(_ folders: some Sequence<String>) -> Int {
        var problems: [String] = []
        var added = 0
        let startThread = state.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            var isNew = false
            if state.inotify < 0 {
                guard Self.open(&state) else {
                    problems.append("cannot watch the music folders: \(String(cString: strerror(errno)))")
                    state.isStopped = true
                    return false
                }
                isNew = true
            }
            for folder in folders {
                switch Self.addWatch(folder, in: &state) {
                case .added: added += 1
                case .already, .failed: break
                case .refused(let problem):
                    if let problem { problems.append(problem) }
                }
            }
            return isNew
        }
        report(problems)
        if startThread { DetachedThread.start(name: "linnet.watch") { [self] in run() } }
        return added
    }

    /// Stops watching; the thread ends at its next wake-up, which this causes.
    func stop() {
        state.withLock { state in
            state.isStopped = true
            if state.wake.write >= 0 {
                var byte: UInt8 = 1
                _ = write(state.wake.write, &byte, 1)
            }
        }
    }

    func report(_ problems: [String]) {
        guard !problems.isEmpty, let handlers = handlers.withLock({ $0 }) else { return }
        for problem in problems { handlers.onProblem(problem) }
    }

    private static func open(_ state: inout State) -> Bool {
        state.inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        var ends: [Int32] = [-1, -1]
        // pipe2 needs _GNU_SOURCE, which the Glibc module is not built with.
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
            state.wake = (ends[0], ends[1])
        }
        return state.inotify >= 0 && state.wake.read >= 0
    }

    enum WatchResult {
        case added, already, failed
        /// Not watched for a limit; the problem to log, the first time only.
        case refused(String?)
    }

    /// Adds a watch on `folder` unless it has one.
    static func addWatch(_ folder: String, in state: inout State) -> WatchResult {
        guard state.descriptors[folder] == nil else { return .already }
        guard state.descriptors.count < maxFolders else {
            defer { state.refusedWarned = true }
            return .refused(state.refusedWarned ? nil : "watching only \(maxFolders) folders for changes")
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_MOVE_SELF | IN_ONLYDIR)
        let descriptor = inotify_add_watch(state.inotify, folder, mask)
        guard descriptor >= 0 else {
            // The user's whole inotify budget is spent (shared with every other program): say
            // so once; the folder's files are still read, only later changes go unseen.
            guard errno == ENOSPC else { return .failed }
            defer { state.limitWarned = true }
            return .refused(state.limitWarned ? nil : """
                the inotify watch limit (fs.inotify.max_user_watches) is reached: changes in \
                \(folder) and further folders are not seen until linnet restarts
                """)
        }
        // One inode, one descriptor: a folder watched under an old path gets the same number.
        if let old = state.folders[descriptor] { state.descriptors[old] = nil }
        state.folders[descriptor] = folder
        state.descriptors[folder] = descriptor
        return .added
    }

    /// Removes the watches of `folder` and of every folder under it.
    static func removeWatches(under folder: String, in state: inout State) {
        let prefix = folder + "/"
        for (path, descriptor) in state.descriptors where path == folder || path.hasPrefix(prefix) {
            inotify_rm_watch(state.inotify, descriptor)
            state.descriptors[path] = nil
            state.folders[descriptor] = nil
        }
    }
}
