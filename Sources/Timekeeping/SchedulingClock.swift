/// The clock that time-driven features (alarms, the sleep timer, the Pomodoro) run on: Swift's
/// `Clock` over awake time, plus the wall clock, plus the wake-ups armed on either.
///
/// Production uses the system's clocks and loop timers; tests use a manual clock (PlayerTestKit's
/// `ManualClock`) and move time forward by hand, so a 25-minute Pomodoro phase or a fade ends in
/// one call, with no sleeps. An owner arms one wake-up for its next deadline and re-arms when the
/// deadline changes: nothing polls.
///
/// Handlers run where the implementation says (the system clock: on its event loop's thread; the
/// manual clock: wherever time is advanced), always one at a time and in deadline order.
public protocol SchedulingClock: Clock, Sendable where Instant == AwakeInstant {
    /// The wall clock now.
    var wallNow: WallInstant { get }

    /// Calls `handler` once when awake time reaches `deadline` (soon, if it already has), unless
    /// the returned wake-up is cancelled first.
    func wake(at deadline: AwakeInstant, _ handler: @escaping @Sendable () -> Void) -> any ScheduledWake

    /// A disarmed timer on the wall clock, calling `handler` when its instant is reached and
    /// whenever someone sets the wall clock.
    func makeWallTimer(_ handler: @escaping @Sendable (WallTimerEvent) -> Void) throws -> any WallTimer
}

/// A wake-up armed on a ``SchedulingClock``.
public protocol ScheduledWake: Sendable {
    /// Makes sure the handler does not run (if it has not already).
    func cancel()
}

/// What a ``WallTimer``'s handler is told.
public enum WallTimerEvent: Sendable, Equatable {
    /// The armed instant was reached.
    case expired
    /// The wall clock was set (NTP step, the user): anything planned on it must be planned again.
    /// The timer is disarmed until armed again.
    case clockChanged
}

/// A one-shot timer on the wall clock. After a suspend it fires as soon as the machine is back if
/// its instant passed meanwhile (unlike awake-time wake-ups, which wait out the time slept).
public protocol WallTimer: AnyObject, Sendable {
    /// Arms the timer for `instant` (a past instant expires at once), replacing any earlier
    /// arming; nil disarms it.
    func arm(at instant: WallInstant?)
}
