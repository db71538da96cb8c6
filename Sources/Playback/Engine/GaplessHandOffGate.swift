/// Whether about-to-finish may hand the next URI to playbin now, or should first let a pipeline
/// state change in flight finish: the decision of ``GaplessFeeder``, as a value.
///
/// playbin switches groups on the streaming thread right after the signal returns (it drops the
/// finished group's combiner, adds the next uridecodebin, and only then gives it its URI), while
/// a pipeline state change on another thread walks those same children. Two changes overlap a
/// switch: GStreamer finishing PAUSED→PLAYING after preroll on a thread of its own (a short first
/// track drains before it is done), and a pipeline on its way up from READY; either can set the
/// new uridecodebin to PAUSED before it has its URI ("No URI specified to play from") or keep a
/// dropped element alive in PLAYING. Waiting for them is safe only while they need nothing more
/// from this thread:
/// - a change down (READY or NULL) is the engine resetting, which waits for this thread;
/// - a pipeline still prerolling (PAUSED pending with the sink not yet prerolled, after a
///   flushing seek) may be waiting for this very thread's data.
/// The wait goes in ``sliceNanoseconds`` slices, so a reset starting meanwhile is held up at most
/// one slice, and ends after ``slices``.
enum GaplessHandOffGate {
    /// A GStreamer element state, by GStreamer's own numbering.
    enum ElementState: Int, Comparable, Sendable {
        case voidPending = 0, null, ready, paused, playing

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    static let slices = 5
    static let sliceNanoseconds: UInt64 = 50_000_000

    /// Whether to wait one more slice for the pipeline's state change: `changeInFlight` is its
    /// current and pending state while a change is in flight (nil when it has settled);
    /// `sinkHasPrerolled` is asked only when it matters.
    static func shouldWait(
        changeInFlight: (current: ElementState, pending: ElementState)?, sinkHasPrerolled: () -> Bool
    ) -> Bool {
        guard let (current, pending) = changeInFlight, pending > current else { return false }
        let startingUp = current <= .ready && pending > .ready
        if startingUp { return true }
        return current == .paused && pending == .playing && sinkHasPrerolled()
    }
}
