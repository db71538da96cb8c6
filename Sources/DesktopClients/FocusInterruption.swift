/// What the focus coordinator asks of linnet's own playback when another player takes over
/// under `pause-others` (iOS's interruption began / ended with "should resume").
public enum FocusInterruption: Sendable, Equatable {
    /// Another player (its bus name) started playing: pause, and expect a `resume`.
    case yield(to: String)
    /// The player linnet gave way to stopped within the resume window: play again if linnet is
    /// still paused because of the `yield`.
    case resume
}

/// An ``AudioFocusing`` that can also ask linnet to give way to another player. Kept apart from
/// ``AudioFocusing`` so the shared contract stays as it is; the player looks for it with `as?`.
public protocol AudioFocusInterrupting: AudioFocusing {
    /// Calls `handler` (on any thread) whenever linnet should pause for another player or may
    /// resume. One handler; a later call replaces it.
    func onInterruption(_ handler: @escaping @Sendable (FocusInterruption) -> Void)
}

/// What holding focus does to the other players that are playing.
public enum FocusEffect: Int, Comparable, Sendable {
    case none = 0
    case duck = 1
    case pause = 2

    public static func < (lhs: FocusEffect, rhs: FocusEffect) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Music follows the policy; alarms always stand out: ducking under `duck`, pausing otherwise.
    public init(purpose: FocusPurpose, policy: FocusPolicy) {
        switch (purpose, policy) {
        case (.music, .mix): self = .none
        case (_, .duck): self = .duck
        case (_, .pauseOthers), (.alarm, .mix): self = .pause
        }
    }
}
