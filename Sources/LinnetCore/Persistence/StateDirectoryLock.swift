import FoundationEssentials
import Glibc
import Synchronization

/// One process at a time per state directory: an exclusive `flock` on `<directory>/lock`, held
/// for the process's life and dropped by the kernel however it ends (kill -9 included). It
/// keeps two linnets from writing one `session.json` or `alarms.json`, even from two session
/// buses (a `dbus-run-session` beside the desktop's).
public final class StateDirectoryLock: Sendable {
    /// What taking the lock found.
    public enum Outcome: Sendable {
        /// This process now holds the directory.
        case held(StateDirectoryLock)
        /// Another live process holds it.
        case busy
        /// No lock file can be made (a read-only or full state folder): nothing to protect the
        /// state with, and nothing will be written there either.
        case unavailable(String)
    }

    /// The directory held.
    public let directory: String
    private let descriptor: Atomic<Int32>

    private init(directory: String, descriptor: Int32) {
        self.directory = directory
        self.descriptor = Atomic(descriptor)
    }

    /// Lets another process take the directory (idempotent).
    public func release() {
        let descriptor = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Takes `directory` (created 0700 if missing) for this process, without waiting.
    public static func take(_ directory: String) -> Outcome {
        do {
            try AtomicFile.createDirectories(directory, mode: 0o700)
        } catch {
            return .unavailable("\(error)")
        }
        // Read-only: flock needs no write access, and a file held open for writing would stop
        // the folder's file system from being remounted read-only under a running linnet.
        let descriptor = open(directory + "/lock", O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .unavailable(String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            return code == EWOULDBLOCK ? .busy : .unavailable(String(cString: strerror(code)))
        }
        return .held(StateDirectoryLock(directory: directory, descriptor: descriptor))
    }

    /// Removes the directories under `parent` that no process holds: scratch state of
    /// instances that have ended (or were killed). Returns how many were removed.
    @discardableResult
    public static func removeAbandoned(under parent: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        var removed = 0
        for name in names {
            let directory = parent + "/" + name
            guard case .held(let lock) = take(directory) else { continue }
            // Removing while holding: an instance starting meanwhile finds it busy and picks
            // another name, never a directory vanishing under it.
            if (try? FileManager.default.removeItem(atPath: directory)) != nil { removed += 1 }
            lock.release()
        }
        return removed
    }

    deinit { release() }
}
