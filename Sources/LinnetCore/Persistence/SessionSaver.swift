import Dispatch
import EventLoop
import Logging
import PlayerCore
import Synchronization

/// Writes the session to disk without blocking the player: soon after every change (changes
/// that come together are written once, but a change never waits more than
/// ``maximumDelay`` however many follow it), and every few seconds while playing so a crash
/// loses at most that much position. Nothing runs while paused.
final class SessionSaver: Sendable {
    /// How long after a change the session is written; changes within it are coalesced.
    static let settleDelay = Duration.milliseconds(300)
    /// The longest a change waits for its write while more keep coming. Below 1 s so that the
    /// snapshot and the fsynced atomic write also fit in the second a change may stay unsaved.
    static let maximumDelay = Duration.milliseconds(900)
    /// How often the position is saved while playing (the issue allows losing 5 s).
    static let playingInterval = Duration.seconds(4)

    private let store: StateStore<SavedSession>
    private let logger: Logger
    private let queue = DispatchQueue(label: "linnet.session-saver")
    private let pending = Mutex(PendingSave())
    private let periodic = Mutex<EventSource?>(nil)

    /// The debounced save: its schedule and the timer armed for it. `generation` tells a timer
    /// that fired just as it was replaced (its handler already running) that it is stale.
    private struct PendingSave {
        var schedule = SaveSchedule(
            settleDelay: SessionSaver.settleDelay, maximumDelay: SessionSaver.maximumDelay)
        var timer: EventSource?
        var generation: UInt64 = 0

        /// Drops the armed timer, so that no write already decided on happens.
        mutating func cancel() {
            timer?.cancel()
            timer = nil
            generation &+= 1
        }
    }

    init(store: StateStore<SavedSession>, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Schedules a save of whatever `snapshot` returns once the changes settle, and at the
    /// latest ``maximumDelay`` after the oldest change not yet saved.
    func scheduleSave(_ snapshot: @escaping @Sendable () -> SavedSession?) {
        pending.withLock { pending in
            // Read under the lock, so that concurrent changes reach the schedule in time order.
            let now = ContinuousClock.now
            let due = pending.schedule.changed(at: now)
            pending.cancel()
            let generation = pending.generation
            pending.timer = EventLoop.shared.timer(after: now.duration(to: due)) { [weak self] in
                self?.saveIfStill(generation, snapshot)
                return .remove
            }
        }
    }

    /// On the loop thread when a debounce timer fires: writes unless a newer change re-armed it.
    private func saveIfStill(_ generation: UInt64, _ snapshot: @Sendable () -> SavedSession?) {
        let current = pending.withLock { pending in
            guard pending.generation == generation else { return false }
            pending.timer = nil
            // The snapshot below is taken after this point, so it holds every change so far.
            pending.schedule.writing()
            return true
        }
        if current, let session = snapshot() { write(session) }
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
        pending.withLock { pending in
            pending.cancel()
            pending.schedule.writing()
        }
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
        // Encoding a large queue builds a JSON tree of every entry (tens of MB at 100 000).
        HeapTrim.afterRelease(ofEntries: session.queue.count)
    }
}
