import Synchronization

/// The pipeline's last position answer, reused for ``lifetime``, or until the next invalidation
/// while the pipeline is settled in PAUSED.
///
/// A position query walks playbin down to its sink under several locks; panels that poll
/// Position or GetAll the Player many times a second made it ~13% of linnet's CPU per call in
/// `make bench`. An answer at most 2 ms old is as good as the query's own accuracy (the sink's
/// latency is larger), and every command and pipeline message drops it.
///
/// While the pipeline is PAUSED with no state change pending (``settle()``), nothing moves the
/// position until the engine changes the pipeline or a message arrives, and each of those
/// invalidates first: an answer taken after settling is kept until then, whatever its age.
final class PositionCache: Sendable {
    static let lifetime = Duration.milliseconds(2)

    private struct State {
        var cached: (microseconds: Int64, at: ContinuousClock.Instant, settled: Bool)?
        /// Bumped by every ``invalidate()`` and ``settle()``: an answer whose query began before
        /// either may predate a jump (a seek during the query) or the pause, and is not remembered.
        var generation: UInt64 = 0
        /// The pipeline is settled in PAUSED since the last invalidation.
        var settled = false
    }

    private let state = Mutex(State())

    /// The cached position if fresh (or taken while settled), otherwise `query()`'s answer
    /// (remembered unless nil, or unless the cache was invalidated while the query ran).
    func value(orQuery query: () -> Int64?) -> Int64? {
        let (cached, generation, settled) = state.withLock { ($0.cached, $0.generation, $0.settled) }
        if let cached, cached.settled { return cached.microseconds }
        let now = ContinuousClock.now
        if let cached, now - cached.at < Self.lifetime { return cached.microseconds }
        let fresh = query()
        state.withLock { state in
            guard state.generation == generation else { return }
            state.cached = fresh.map { ($0, now, settled) }
        }
        return fresh
    }

    /// Forgets the cached answer: the position may have jumped, or may move from now on.
    func invalidate() {
        state.withLock { state in
            state.cached = nil
            state.generation &+= 1
            state.settled = false
        }
    }

    /// Records that the pipeline sits in PAUSED with nothing pending: answers taken from now on
    /// are kept until the next ``invalidate()``. Drops what was cached before, which may have
    /// been taken while the pipeline still moved.
    func settle() {
        state.withLock { state in
            state.cached = nil
            state.generation &+= 1
            state.settled = true
        }
    }
}
