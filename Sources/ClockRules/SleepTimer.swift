public import FoundationEssentials

/// "Pause the music in N minutes, fading out over the last F seconds", as a value. Times are
/// monotonic seconds (any origin): a sleep timer measures elapsed time, not the wall clock.
public struct SleepTimer: Sendable, Hashable {
    /// When playback pauses.
    public let deadline: TimeInterval
    /// Seconds before the deadline over which the volume falls to silence.
    public let fade: TimeInterval

    /// A timer pausing `duration` after `now`, fading over the last `fade` seconds (at most the
    /// whole duration).
    public init(duration: TimeInterval, fade: TimeInterval, now: TimeInterval) {
        deadline = now + duration
        self.fade = min(max(0, fade), duration)
    }

    /// When the fade starts.
    public var fadeStart: TimeInterval { deadline - fade }

    /// Seconds until the pause.
    public func remaining(at now: TimeInterval) -> TimeInterval { max(0, deadline - now) }

    /// The factor (1 … 0) to play at: 1 until the fade, then falling linearly to 0 at the
    /// deadline. A linear factor on a linear volume sounds like a steady fade at this length.
    public func level(at now: TimeInterval) -> Double {
        guard fade > 0, now > fadeStart else { return now >= deadline ? 0 : 1 }
        return max(0, min(1, (deadline - now) / fade))
    }

    /// The next instant the owner must act: the fade start, a fade step (`step` apart) or the
    /// deadline; nil once the deadline passed.
    public func nextWakeUp(after now: TimeInterval, step: TimeInterval) -> TimeInterval? {
        if now >= deadline { return nil }
        if now < fadeStart { return fadeStart }
        return min(deadline, now + step)
    }
}
