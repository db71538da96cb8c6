import Glibc
import Synchronization

/// What changed in watched folders since the last report, by absolute path.
struct FolderChanges: Sendable, Hashable {
    /// Files written and closed, or moved in.
    var written: Set<String> = []
    /// Files deleted or moved away.
    var removed: Set<String> = []
    /// Folders created or moved in (their files are new too).
    var newFolders: Set<String> = []

    var isEmpty: Bool { written.isEmpty && removed.isEmpty && newFolders.isEmpty }
}

/// Watches folders with inotify on a thread of its own that sleeps in `poll` until the kernel
/// reports something (no timer, no polling), and hands each read's changes to the handler on
/// that thread. Watches only the folders given, not their subfolders, and at most ``maxFolders``.
final class FolderWatcher: Sendable {
    /// Most folders watched: each costs a kernel watch from the user's inotify budget
    /// (fs.inotify.max_user_watches, 8192 or more), which other programs share.
    static let maxFolders = 1024

    private struct State: ~Copyable {
        var inotify: Int32 = -1
        /// A pipe whose write end wakes the thread to stop (eventfd is not in the Glibc module).
        var wake: (read: Int32, write: Int32) = (-1, -1)
        var folders: [Int32: String] = [:]
        var watched: Set<String> = []
        var isStopped = false
        var refusedWarned = false
    }

    private struct Handlers {
        let onChange: @Sendable (FolderChanges) -> Void
        let onProblem: @Sendable (String) -> Void
    }

    private let state = Mutex(State())
    private let handlers = Mutex<Handlers?>(nil)

    init() {}

    /// Sets who hears of changes (on the watcher's thread) and of problems; before ``watch(_:)``.
    func setHandlers(onChange: @escaping @Sendable (FolderChanges) -> Void, onProblem: @escaping @Sendable (String) -> Void) {
        handlers.withLock { $0 = Handlers(onChange: onChange, onProblem: onProblem) }
    }

    /// Starts watching `folders` (those not watched yet); the thread starts with the first.
    /// Returns how many folders are newly watched.
    @discardableResult
    func watch(_ folders: some Sequence<String>) -> Int {
        var problem: String?
        var added = 0
        let startThread = state.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            var isNew = false
            if state.inotify < 0 {
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
                guard state.inotify >= 0, state.wake.read >= 0 else {
                    problem = "cannot watch the music folders: \(String(cString: strerror(errno)))"
                    state.isStopped = true
                    return false
                }
                isNew = true
            }
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_ONLYDIR)
            for folder in folders where !state.watched.contains(folder) {
                guard state.watched.count < Self.maxFolders else {
                    if !state.refusedWarned {
                        problem = "watching only \(Self.maxFolders) folders for changes"
                        state.refusedWarned = true
                    }
                    break
                }
                let descriptor = inotify_add_watch(state.inotify, folder, mask)
                guard descriptor >= 0 else { continue }
                state.folders[descriptor] = folder
                state.watched.insert(folder)
                added += 1
            }
            return isNew
        }
        if let problem { handlers.withLock { $0 }?.onProblem(problem) }
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

    private func run() {
        let (inotify, wake) = state.withLock { ($0.inotify, $0.wake) }
        defer {
            close(inotify)
            close(wake.read)
            close(wake.write)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 || state.withLock({ $0.isStopped }) { return }
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            let changes = decode(buffer, count: count)
            if !changes.isEmpty { handlers.withLock { $0 }?.onChange(changes) }
        }
    }

    /// The events in the first `count` bytes of `buffer` (struct inotify_event records).
    private func decode(_ buffer: [UInt8], count: Int) -> FolderChanges {
        var changes = FolderChanges()
        let folders = state.withLock { $0.folders }
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset + header <= count {
                let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let nameBytes = bytes[(offset + header)..<min(count, offset + header + Int(event.len))]
                offset += header + Int(event.len)
                guard let folder = folders[event.wd] else { continue }
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                guard !name.isEmpty, !name.hasPrefix(".") else { continue }
                let path = folder + "/" + name
                let mask = event.mask
                if mask & UInt32(IN_ISDIR) != 0 {
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { changes.newFolders.insert(path) }
                } else if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                    changes.written.insert(path)
                    changes.removed.remove(path)
                } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    changes.removed.insert(path)
                    changes.written.remove(path)
                }
            }
        }
        return changes
    }
}
