import Dispatch
import EventLoop
import Logging
import Synchronization

/// Writes the session to disk without blocking the player: soon after every change (changes
/// that come together are written once), and every few seconds while playing so a crash loses
/// at most that much position. Nothing runs while paused.
final class SessionSaver: Sendable {
    /// How long after a change the session is written; changes within it are coalesced.
    static let settleDelay = Duration.milliseconds(300)
    /// How often the position is saved while playing (the issue allows losing 5 s).
    static let playingInterval = Duration.seconds(4)

    private let store: StateStore<SavedSession>
    private let logger: Logger
    private let queue = DispatchQueue(label: "linnet.session-saver")
    private let pending = Mutex<EventSource?>(nil)
    private let periodic = Mutex<EventSource?>(nil)

    init(store: StateStore<SavedSession>, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Schedules a save of whatever `snapshot` returns once the changes settle.
    func scheduleSave(_ snapshot: @escaping @Sendable () -> SavedSession?) {
        let source = EventLoop.shared.timer(after: Self.settleDelay) { [weak self] in
            self?.pending.withLock { $0 = nil }
            if let session = snapshot() { self?.write(session) }
            return .remove
        }
        pending.withLock { previous in
            previous?.cancel()
            previous = source
        }
    }

    /// Saves periodically while `playing`, and stops doing so when not.
    func setPlaying(_ playing: Bool, snapshot: @escaping @Sendable () -> SavedSession?) {
        periodic.withLock { current in
            if playing, current == nil {
                current = EventLoop.shared.timer(after: Self.playingInterval) { [weak self] in
                    if let session = snapshot() { self?.write(session) }
                    return .keep
                }
            } else if !playing, let source = current {
                source.cancel()
                current = nil
            }
        }
    }

    /// Writes `session` now and waits for it (used when quitting).
    func saveNow(_ session: SavedSession) {
        pending.withLock { $0?.cancel(); $0 = nil }
        periodic.withLock { $0?.cancel(); $0 = nil }
        queue.sync { persist(session) }
    }

    private func write(_ session: SavedSession) {
        queue.async { [self] in persist(session) }
    }

    private func persist(_ session: SavedSession) {
        do {
            try store.save(session)
        } catch {
            // The last good state stays on disk; playback goes on.
            logger.error("cannot save the session: \(error)")
        }
    }
}
