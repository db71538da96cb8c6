/// When to write state that keeps changing: once the changes settle, but never later than
/// ``maximumDelay`` after the oldest change not yet written (a debounce with a maximum delay).
///
/// A plain debounce restarts its wait at every change, so a steady stream of changes closer
/// together than the wait is never written at all. Here each change may push the write back by
/// at most ``settleDelay``, and never past the deadline set by the first change of the batch.
/// Time arrives as a value, so the rule is tested without waiting.
///
/// On `ContinuousClock`'s instants only, not generic over `InstantProtocol`: the session saver
/// made before the bus name holds one, and a generic one had the runtime look up the instant's
/// conformance, a scan of every conformance in the process.
struct SaveSchedule: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// How long after a change the write waits for more changes to join it.
    let settleDelay: Duration
    /// The longest a change waits for its write, however many follow it.
    let maximumDelay: Duration
    /// When the oldest change that no write has taken yet was made.
    private(set) var oldestUnwrittenChange: Instant?

    init(settleDelay: Duration, maximumDelay: Duration) {
        precondition(settleDelay <= maximumDelay, "a change cannot settle later than its deadline")
        self.settleDelay = settleDelay
        self.maximumDelay = maximumDelay
    }

    /// Records a change made at `now` and answers when to write.
    mutating func changed(at now: Instant) -> Instant {
        let oldest = oldestUnwrittenChange ?? now
        oldestUnwrittenChange = oldest
        return min(now.advanced(by: settleDelay), oldest.advanced(by: maximumDelay))
    }

    /// A write is taking the state now: it holds every change recorded so far, and the next
    /// change starts a new deadline.
    mutating func writing() {
        oldestUnwrittenChange = nil
    }
}
