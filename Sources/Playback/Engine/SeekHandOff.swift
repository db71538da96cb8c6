/// Seeks around the gapless hand-off, as a value: what waits for the preroll, what is held back
/// from playbin, and what a seek has to do about a track already handed over. One per pipeline
/// generation, on the loop thread; `GStreamerPipeline+Seeking` performs what it decides.
///
/// | state | meaning and reason |
/// |---|---|
/// | `pending` | a seek waiting for ASYNC_DONE: a pipeline that has not prerolled cannot seek |
/// | `heldNext` | the next URI kept from playbin while a seek is due: a flushing seek after the hand-off would drop the current track |
/// | `userTarget` | where the user's seek in flight lands, reported at its ASYNC_DONE: a paused sink answers a position query past it |
struct SeekHandOff: Equatable, Sendable {
    struct Seek: Equatable, Sendable {
        var microseconds: Int64
        /// Whether the seek is the user's, to be reported when done.
        var reported: Bool
    }

    /// How a seek on a prerolled pipeline goes.
    enum Plan: Equatable, Sendable {
        /// A next URI was already handed to playbin, which a flushing seek would jump to: reload
        /// the current track at the position instead, and queue `next` once that seek is done.
        case reload(next: String)
        /// Seek in place, then give playbin `next` again (it was taken back for the seek).
        case seek(restoring: String?)
    }

    /// What the preroll (ASYNC_DONE) calls for first.
    enum PrerollStep: Equatable, Sendable {
        case seek(Seek)
        case reportSeekCompleted(microseconds: Int64)
        /// The rate asked for is not the one running: seek where the pipeline is, at that rate.
        case reapplyRate
        case none
    }

    private(set) var pending: Seek?
    private(set) var heldNext: String?
    private(set) var userTarget: Int64?

    /// A seek asked of a pipeline not prerolled yet: the last position wins, and it is reported if
    /// any of the seeks it replaces was to be.
    mutating func holdUntilPrerolled(_ seek: Seek) {
        pending = Seek(microseconds: seek.microseconds, reported: seek.reported || pending?.reported == true)
    }

    /// A seek on a prerolled pipeline, given what the hand-off held when the queued next URI was
    /// taken back from it (`queued`) and the oldest URI it had already handed over.
    mutating func plan(queued: String?, handedOver: String?) -> Plan {
        let next = queued ?? heldNext
        heldNext = nil
        if let handedOver { return .reload(next: handedOver) }
        return .seek(restoring: next)
    }

    /// A seek went through.
    mutating func performed(_ seek: Seek) {
        if seek.reported { userTarget = max(0, seek.microseconds) }
    }

    /// The app's next URI: returns what playbin may have now, holding it back while a seek is
    /// pending or `rateDue` (a rate change is applied by a seek too).
    mutating func queueNext(_ uri: String?, rateDue: Bool) -> String? {
        if pending != nil || rateDue {
            heldNext = uri
            return nil
        }
        heldNext = nil
        return uri
    }

    /// The current track was reloaded on a fresh generation only to seek in it.
    mutating func reloaded(seekingTo seek: Seek, next: String?) {
        pending = seek
        heldNext = next
    }

    /// ASYNC_DONE. `rateDue` when the rate running differs from the one asked for.
    mutating func prerolled(rateDue: Bool) -> PrerollStep {
        if let pending {
            self.pending = nil
            return .seek(pending)
        }
        if let userTarget {
            self.userTarget = nil
            return .reportSeekCompleted(microseconds: userTarget)
        }
        return rateDue ? .reapplyRate : .none
    }

    /// After the preroll's step: a next URI still held was held for a seek that turned out not to
    /// be needed, and goes to playbin now.
    mutating func releaseHeldNext() -> String? {
        defer { heldNext = nil }
        return heldNext
    }
}
