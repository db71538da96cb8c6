import Synchronization

/// The pipeline's last position answer, reused for ``lifetime``.
///
/// A position query walks playbin down to its sink under several locks; panels that poll
/// Position or GetAll the Player many times a second made it ~13% of linnet's CPU per call in
/// `make bench`. An answer at most 2 ms old is as good as the query's own accuracy (the sink's
/// latency is larger), and every command and pipeline message drops it.
final class PositionCache: Sendable {
    static let lifetime = Duration.milliseconds(2)

    private struct State {
        var cached: (microseconds: Int64, at: ContinuousClock.Instant)?
        /// Bumped by every ``invalidate()``: an answer whose query began before the latest
        /// invalidation may predate the jump (a seek during the query) and is not remembered.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The cached position if fresh, otherwise `query()`'s answer (remembered unless nil, or
    /// unless the cache was invalidated while the query ran).
    func value(orQuery query: () -> Int64?) -> Int64? {
        let now = ContinuousClock.now
        let (cached, generation) = state.withLock { ($0.cached, $0.generation) }
        if let cached, now - cached.at < Self.lifetime { return cached.microseconds }
        let fresh = query()
        state.withLock { state in
            guard state.generation == generation else { return }
            state.cached = fresh.map { ($0, now) }
        }
        return fresh
    }

    /// Forgets the cached answer: the position may have jumped.
    func invalidate() {
        state.withLock { state in
            state.cached = nil
            state.generation &+= 1
        }
    }
}
