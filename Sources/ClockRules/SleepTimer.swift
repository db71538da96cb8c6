public import Timekeeping

/// "Pause the music in N minutes, fading out over the last F seconds", as a value. Times are
/// awake instants: a sleep timer measures time spent awake, not the wall clock.
public struct SleepTimer: Sendable, Hashable {
    /// When playback pauses.
    public let deadline: AwakeInstant
    /// How long before the deadline the volume starts falling to silence.
    public let fade: Duration

    /// A timer pausing `duration` after `now`, fading over the last `fade` seconds (at most the
    /// whole duration).
    public init(duration: Duration, fade: Duration, now: AwakeInstant) {
        deadline = now + duration
        self.fade = min(max(.zero, fade), duration)
    }

    /// When the fade starts.
    public var fadeStart: AwakeInstant { deadline - fade }

    /// Time left until the pause.
    public func remaining(at now: AwakeInstant) -> Duration { max(.zero, deadline - now) }

    /// The factor (1 … 0) to play at: 1 until the fade, then falling linearly to 0 at the
    /// deadline. A linear factor on a linear volume sounds like a steady fade at this length.
    public func level(at now: AwakeInstant) -> Double {
        guard fade > .zero, now > fadeStart else { return now >= deadline ? 0 : 1 }
        return max(0, min(1, (deadline - now) / fade))
    }

    /// The next instant the owner must act: the fade start, a fade step (`step` apart) or the
    /// deadline; nil once the deadline passed.
    public func nextWakeUp(after now: AwakeInstant, step: Duration) -> AwakeInstant? {
        if now >= deadline { return nil }
        if now < fadeStart { return fadeStart }
        return min(deadline, now + step)
    }
}
