/// Spans of time are Swift's `Duration` everywhere in the core: track lengths and positions,
/// snoozes, fades, Pomodoro phases. These read the units found at the edges: D-Bus and MPRIS
/// count microseconds, GStreamer nanoseconds, people and the CLI (fractional) seconds. (Writing
/// them is the standard library's `.microseconds(_:)`, `.nanoseconds(_:)`, `.seconds(_:)`.)
extension Duration {
    /// Whole microseconds, rounded toward zero; clamped to `Int64`'s range (MPRIS's `x`).
    public var inMicroseconds: Int64 { whole(unitsPerSecond: 1_000_000) }

    /// Whole nanoseconds, rounded toward zero; clamped to `Int64`'s range (a `GstClockTime`).
    public var inNanoseconds: Int64 { whole(unitsPerSecond: 1_000_000_000) }

    /// Whole milliseconds, rounded up (a timer armed for this many never fires early).
    public var inMillisecondsRoundedUp: Int64 {
        let down = whole(unitsPerSecond: 1000)
        return Duration.milliseconds(down) < self && down < .max ? down + 1 : down
    }

    /// Seconds, fractional.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Exact integer arithmetic on the components (both carry the sign, both truncated toward
    /// zero), saturating instead of trapping: a position of `Int64.max` µs is a valid request.
    private func whole(unitsPerSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / (1_000_000_000_000_000_000 / unitsPerSecond))
        guard !overflowAgain else { return seconds < 0 ? .min : .max }
        return sum
    }
}
