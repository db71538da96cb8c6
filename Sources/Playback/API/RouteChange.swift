/// How the route of a stream changed, judged the way a phone judges it. The rule, stated once:
/// the output vanishing, or the same sink's port going from headphones to speakers (an unplug),
/// is a reason to pause; the stream moving to another output that still exists (the user's
/// mixer, or a policy following a new default device) is a choice, and plays on — even from
/// headphones to speakers.
public enum RouteChange: Sendable, Hashable {
    /// The first route known for the stream.
    case initial
    /// Nothing that matters for playback changed (the same sink, still private or still not).
    case unchanged
    /// The sink the stream played to went away (a Bluetooth or USB device, an unloaded sink);
    /// the server moved the stream to another one.
    case sinkVanished
    /// Listening stopped being private on the same sink: its active port changed from
    /// headphones to speakers, or the headphone jack reported nothing plugged in.
    case privateListeningEnded
    /// Listening became private: headphones plugged in on the same sink.
    case privateListeningStarted
    /// The stream moved to another sink while the old one still exists: the user (or a policy,
    /// following a new default device) chose it, whether or not the new one is private.
    case moved

    /// Classifies the step from `old` (nil when the stream's route was not known yet) to `new`.
    /// `oldSinkStillExists` says whether the server still had `old`'s sink when it reported
    /// `new` (it answers in order, so a sink that was unloaded is gone by then).
    public static func classify(from old: OutputRoute?, to new: OutputRoute, oldSinkStillExists: Bool) -> RouteChange {
        guard let old else { return .initial }
        guard old.sinkIndex == new.sinkIndex else { return oldSinkStillExists ? .moved : .sinkVanished }
        switch (old.isPrivateListening, new.isPrivateListening) {
        case (true, false): return .privateListeningEnded
        case (false, true): return .privateListeningStarted
        default: return .unchanged
        }
    }

    /// Whether the output the listener relied on is gone: what a player pauses on (like iOS's
    /// "old device unavailable"), unless told to keep playing.
    public var lostRoute: Bool {
        switch self {
        case .sinkVanished, .privateListeningEnded: true
        case .initial, .unchanged, .privateListeningStarted, .moved: false
        }
    }
}
