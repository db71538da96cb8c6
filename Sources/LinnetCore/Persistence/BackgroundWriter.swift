import Dispatch
import Synchronization

/// Runs the writes of one file on a serial queue of its own, off whatever thread asked (the
/// D-Bus loop must never wait for a disk). A write asked for while another is still queued
/// joins it: each write reads the latest value when it runs, so a flood of changes costs one
/// write at a time and the file always ends with the last one.
final class BackgroundWriter: Sendable {
    private struct State {
        var queued: (@Sendable () -> Bool)?
        var lastSucceeded = true
    }

    private let queue: DispatchQueue
    private let state = Mutex(State())

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    /// Queues `write` (which answers whether it succeeded) unless a write is already queued,
    /// in which case `write` replaces it.
    func submit(_ write: @escaping @Sendable () -> Bool) {
        let schedule = state.withLock { state in
            defer { state.queued = write }
            return state.queued == nil
        }
        guard schedule else { return }
        queue.async { [self] in
            guard let write = state.withLock({ state in
                defer { state.queued = nil }
                return state.queued
            }) else { return }
            let succeeded = write()
            state.withLock { $0.lastSucceeded = succeeded }
        }
    }

    /// Returns once every write submitted before the call has run.
    func settled() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { done.resume() }
        }
    }

    /// Blocks until every write submitted before the call has run; whether the last one
    /// succeeded (true when none ran).
    func finish() -> Bool {
        queue.sync {}
        return state.withLock { $0.lastSucceeded }
    }
}
