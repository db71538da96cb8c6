import Synchronization

/// What the engine's user has asked for, kept apart from any pipeline so that a replacement for a
/// stuck one can be brought to the same point.
///
/// Commands record themselves here as they are issued; the pipeline records the changes it makes
/// on its own (a gapless switch, a stop after an error) before it reports them, so the user's
/// answer to such an event always lands after it.
struct EngineIntent: Sendable {
    enum Target: Sendable { case stopped, paused, playing }

    /// The URI to play: the last one loaded, or the one a gapless switch moved on to.
    var uri: String?
    /// The gapless follower queued for `uri`.
    var next: String?
    var target = Target.stopped
    var volume: Double?
    var muted: Bool?
    var rate = 1.0

    /// `uri` plays now, loaded or reached by a gapless switch; any follower is used up.
    mutating func moved(to uri: String) {
        self.uri = uri
        next = nil
    }

    /// An error stopped the pipeline; the failed URI is not to be tried again on its own.
    mutating func stoppedByError() {
        target = .stopped
        uri = nil
        next = nil
    }
}

/// The one ``EngineIntent`` an engine and its pipelines share.
final class EngineIntentStore: Sendable {
    private let intent = Mutex(EngineIntent())

    func update(_ change: (inout EngineIntent) -> Void) {
        intent.withLock { change(&$0) }
    }

    var current: EngineIntent { intent.withLock { $0 } }
}
