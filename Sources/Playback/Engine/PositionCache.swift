import Synchronization

/// The pipeline's last position answer, reused for ``lifetime``.
///
/// A position query walks playbin down to its sink under several locks; panels that poll
/// Position or GetAll the Player many times a second made it ~13% of linnet's CPU per call in
/// `make bench`. An answer at most 2 ms old is as good as the query's own accuracy (the sink's
/// latency is larger), and every command and pipeline message drops it.
final class PositionCache: Sendable {
    static let lifetime = Duration.milliseconds(2)
    private let entry = Mutex<(microseconds: Int64, at: ContinuousClock.Instant)?>(nil)

    /// The cached position if fresh, otherwise `query()`'s answer (remembered unless nil).
    func value(orQuery query: () -> Int64?) -> Int64? {
        let now = ContinuousClock.now
        if let cached = entry.withLock({ $0 }), now - cached.at < Self.lifetime { return cached.microseconds }
        let fresh = query()
        entry.withLock { $0 = fresh.map { ($0, now) } }
        return fresh
    }

    /// Forgets the cached answer: the position may have jumped.
    func invalidate() { entry.withLock { $0 = nil } }
}
