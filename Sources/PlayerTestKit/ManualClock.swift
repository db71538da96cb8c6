public import EventLoop
import Synchronization
public import Timekeeping

/// A ``SchedulingClock`` that stands still until a test moves it: ``advance(by:)`` runs every
/// wake-up that comes due, in deadline order, each with the clock reading its own deadline, so a
/// 25-minute Pomodoro phase or a sleep-timer fade plays out in one call, with no sleeps and on
/// any machine load.
///
/// Both timelines move together as time passes; ``setWallClock(to:)`` steps the wall clock alone
/// (NTP, the user), ``sleepMachine(for:)`` moves it while awake time stands still (a suspend).
/// A wake-up armed in the past runs at the next ``advance(by:)`` (`.zero` will do), as the real
/// clock runs it at the next turn of its loop. Handlers run on `loop`'s thread when one is given
/// (what LinnetCore's `ClockService` expects), else on the thread that advances the clock.
public final class ManualClock: SchedulingClock {
    private struct Wake {
        var deadline: AwakeInstant
        var handler: @Sendable () -> Void
    }

    private struct WallAlarm {
        var armed: WallInstant?
        var handler: @Sendable (WallTimerEvent) -> Void
    }

    private struct State {
        var awake = AwakeInstant.origin
        var wall: WallInstant
        var nextID: UInt64 = 0
        var wakes: [UInt64: Wake] = [:]
        var wallAlarms: [UInt64: WallAlarm] = [:]
    }

    /// What is due next: an awake-time wake-up or a wall timer.
    private enum Due {
        case wake(@Sendable () -> Void)
        case wall(@Sendable (WallTimerEvent) -> Void)
    }

    private let state: Mutex<State>
    private let loop: EventLoop?
    /// More handlers than this in one advance means a handler keeps re-arming in the past: the
    /// spin a real loop would do at 100 % CPU. It fails loudly instead.
    public static let handlerLimitPerAdvance = 100_000

    /// A clock at awake time zero and wall time `wall`, running handlers on `loop` (if any).
    public init(wall: WallInstant, loop: EventLoop? = nil) {
        state = Mutex(State(wall: wall))
        self.loop = loop
    }

    public var now: AwakeInstant { state.withLock { $0.awake } }
    public var wallNow: WallInstant { state.withLock { $0.wall } }
    public var minimumResolution: Duration { .zero }

    /// Wake-ups armed and not yet run or cancelled, wall timers armed included: an owner that
    /// keeps "one timer for the next deadline" shows at most one of each kind here.
    public var pendingWakeUps: Int {
        state.withLock { $0.wakes.count + $0.wallAlarms.values.filter { $0.armed != nil }.count }
    }

    /// When the next awake-time wake-up is due, if any.
    public var nextWakeUp: AwakeInstant? { state.withLock { $0.wakes.values.map(\.deadline).min() } }

    public func wake(at deadline: AwakeInstant, _ handler: @escaping @Sendable () -> Void) -> any ScheduledWake {
        let id = state.withLock { state in
            state.nextID += 1
            state.wakes[state.nextID] = Wake(deadline: deadline, handler: handler)
            return state.nextID
        }
        return ManualWake(clock: self, id: id)
    }

    public func makeWallTimer(_ handler: @escaping @Sendable (WallTimerEvent) -> Void) throws -> any WallTimer {
        let id = state.withLock { state in
            state.nextID += 1
            state.wallAlarms[state.nextID] = WallAlarm(armed: nil, handler: handler)
            return state.nextID
        }
        return ManualWallTimer(clock: self, id: id)
    }

    /// Suspends until ``advance(by:)`` reaches `deadline`; throws `CancellationError` when the
    /// task is cancelled first.
    public func sleep(until deadline: AwakeInstant, tolerance: Duration?) async throws {
        let waiter = SleepWaiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiter.set(continuation)
                let wake = self.wake(at: deadline) { waiter.finish(nil) }
                waiter.onCancel { wake.cancel() }
            }
        } onCancel: {
            waiter.finish(CancellationError())
        }
    }

    /// Lets `duration` pass on both clocks, running what comes due on the way.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "time only moves forward")
        runDue(for: duration, awakeMoves: true)
    }

    /// Lets time pass until awake time reads `instant` (nothing passes if it already does).
    public func advance(to instant: AwakeInstant) {
        advance(by: max(.zero, now.duration(to: instant)))
    }

    /// Steps the wall clock to `instant` with no awake time passing: every armed wall timer is
    /// disarmed and hears ``WallTimerEvent/clockChanged``, as `TFD_TIMER_CANCEL_ON_SET` does.
    public func setWallClock(to instant: WallInstant) {
        let told = state.withLock { state -> [@Sendable (WallTimerEvent) -> Void] in
            state.wall = instant
            var handlers: [@Sendable (WallTimerEvent) -> Void] = []
            for (id, alarm) in state.wallAlarms.sorted(by: { $0.key < $1.key }) where alarm.armed != nil {
                state.wallAlarms[id]?.armed = nil
                handlers.append(alarm.handler)
            }
            return handlers
        }
        for handler in told { run { handler(.clockChanged) } }
    }

    /// The machine sleeps for `duration`: the wall clock moves, awake time does not. Wall timers
    /// whose instant passed fire on waking, all at once with the clock already at the wake-up
    /// time, as a timerfd on `CLOCK_REALTIME` does.
    public func sleepMachine(for duration: Duration) {
        precondition(duration >= .zero, "time only moves forward")
        state.withLock { $0.wall = $0.wall + duration }
        runDue(for: .zero, awakeMoves: false)
    }

    /// Runs what falls due within `duration`, earliest first, each with the clocks moved to its
    /// instant, then moves them to the end. Awake time moves along only when `awakeMoves`.
    private func runDue(for duration: Duration, awakeMoves: Bool) {
        let (awakeStart, wallStart) = state.withLock { ($0.awake, $0.wall) }
        var handled = 0
        while let due = takeNextDue(within: awakeStart, wallStart, duration, awakeMoves: awakeMoves) {
            handled += 1
            precondition(handled <= Self.handlerLimitPerAdvance,
                         "more than \(Self.handlerLimitPerAdvance) wake-ups in one advance: a handler re-arms in the past")
            switch due {
            case .wake(let handler): run(handler)
            case .wall(let handler): run { handler(.expired) }
            }
        }
        state.withLock { state in
            if awakeMoves { state.awake = max(state.awake, awakeStart + duration) }
            state.wall = max(state.wall, wallStart + duration)
        }
    }

    /// Takes the earliest item due by `start + duration` off the books (ties: first armed) and
    /// moves the clocks to its instant (never backwards: one armed in the past runs now).
    private func takeNextDue(within awakeStart: AwakeInstant, _ wallStart: WallInstant, _ duration: Duration,
                             awakeMoves: Bool) -> Due? {
        state.withLock { state in
            // Each candidate as (offset into this advance, id); a past deadline counts as now.
            var best: (offset: Duration, id: UInt64, isWall: Bool)?
            func consider(_ offset: Duration, _ id: UInt64, isWall: Bool) {
                let offset = max(.zero, offset)
                guard offset <= duration else { return }
                if best.map({ (offset, id) < ($0.offset, $0.id) }) ?? true { best = (offset, id, isWall) }
            }
            if awakeMoves {
                for (id, wake) in state.wakes { consider(awakeStart.duration(to: wake.deadline), id, isWall: false) }
            }
            for (id, alarm) in state.wallAlarms {
                if let armed = alarm.armed { consider(wallStart.duration(to: armed), id, isWall: true) }
            }
            guard let best else { return nil }
            if awakeMoves { state.awake = max(state.awake, awakeStart + best.offset) }
            state.wall = max(state.wall, wallStart + best.offset)
            if best.isWall {
                state.wallAlarms[best.id]?.armed = nil
                return state.wallAlarms[best.id].map { .wall($0.handler) }
            }
            return state.wakes.removeValue(forKey: best.id).map { .wake($0.handler) }
        }
    }

    private func run(_ handler: @escaping @Sendable () -> Void) {
        if let loop { loop.sync { handler() } } else { handler() }
    }

    fileprivate func cancel(wake id: UInt64) { _ = state.withLock { $0.wakes.removeValue(forKey: id) } }
    fileprivate func arm(wallTimer id: UInt64, at instant: WallInstant?) { state.withLock { $0.wallAlarms[id]?.armed = instant } }
    fileprivate func discard(wallTimer id: UInt64) { _ = state.withLock { $0.wallAlarms.removeValue(forKey: id) } }
}

private struct ManualWake: ScheduledWake {
    let clock: ManualClock
    let id: UInt64
    func cancel() { clock.cancel(wake: id) }
}

private final class ManualWallTimer: WallTimer {
    let clock: ManualClock
    let id: UInt64
    init(clock: ManualClock, id: UInt64) {
        self.clock = clock
        self.id = id
    }
    deinit { clock.discard(wallTimer: id) }
    func arm(at instant: WallInstant?) { clock.arm(wallTimer: id, at: instant) }
}

/// One continuation resumed exactly once, by the wake-up or by cancellation, whichever is first.
private final class SleepWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var finished = false
        var error: (any Error)?
        var cancelWake: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<Void, any Error>) {
        let finishedEarly = state.withLock { state -> Bool in
            if !state.finished { state.continuation = continuation }
            return state.finished
        }
        if finishedEarly { resume(continuation, with: state.withLock { $0.error }) }
    }

    func onCancel(_ cancelWake: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state -> Bool in
            state.cancelWake = cancelWake
            return state.finished && state.error != nil
        }
        if cancelled { cancelWake() }
    }

    func finish(_ error: (any Error)?) {
        let taken = state.withLock { state -> (CheckedContinuation<Void, any Error>?, (@Sendable () -> Void)?)? in
            guard !state.finished else { return nil }
            state.finished = true
            state.error = error
            defer { state.continuation = nil }
            return (state.continuation, error != nil ? state.cancelWake : nil)
        }
        guard let (continuation, cancelWake) = taken else { return }
        cancelWake?()
        if let continuation { resume(continuation, with: error) }
    }

    private func resume(_ continuation: CheckedContinuation<Void, any Error>, with error: (any Error)?) {
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
