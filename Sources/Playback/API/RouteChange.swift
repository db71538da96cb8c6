/// How the route of a stream changed, judged the way a phone judges it: losing the headphones
/// or the device is a reason to pause; the user choosing another existing output is not.
public enum RouteChange: Sendable, Hashable {
    /// The first route known for the stream.
    case initial
    /// Nothing that matters for playback changed (the same sink, still private or still not).
    case unchanged
    /// The sink the stream played to went away (a Bluetooth or USB device, an unloaded sink);
    /// the server moved the stream to another one.
    case sinkVanished
    /// Listening stopped being private: the sink's active port changed from headphones to
    /// speakers (headphones unplugged), or the stream left a headphone device for a non-private
    /// one while the headphones still exist.
    case privateListeningEnded
    /// Listening became private: headphones plugged in on the same sink.
    case privateListeningStarted
    /// The stream moved to another sink while the old one still exists, and listening did not
    /// stop being private: the user (or a policy, following a new default device) chose it.
    case moved

    /// Classifies the step from `old` (nil when the stream's route was not known yet) to `new`.
    /// `oldSinkStillExists` says whether the server still had `old`'s sink when it reported
    /// `new` (it answers in order, so a sink that was unloaded is gone by then).
    public static func classify(from old: OutputRoute?, to new: OutputRoute, oldSinkStillExists: Bool) -> RouteChange {
        guard let old else { return .initial }
        let lostPrivacy = old.isPrivateListening && !new.isPrivateListening
        if old.sinkIndex == new.sinkIndex {
            if lostPrivacy { return .privateListeningEnded }
            if !old.isPrivateListening && new.isPrivateListening { return .privateListeningStarted }
            return .unchanged
        }
        if !oldSinkStillExists { return .sinkVanished }
        return lostPrivacy ? .privateListeningEnded : .moved
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
