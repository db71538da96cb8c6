public import EventLoop
import FoundationEssentials
import Glibc
public import Timekeeping

/// The machine's clocks: awake time is `CLOCK_MONOTONIC` (Swift's `SuspendingClock`, the clock
/// GLib's timeouts use), the wall clock `CLOCK_REALTIME`. Wake-ups are one-shot loop timers and
/// a timerfd, delivered on `loop`'s thread; nothing polls.
public struct SystemClock: SchedulingClock {
    /// Awake time counts from the first reading in the process: any origin will do.
    private static let origin = SuspendingClock.now
    private let loop: EventLoop

    /// The system's clocks, delivering wake-ups on `loop`.
    public init(loop: EventLoop = .shared) {
        self.loop = loop
    }

    public var now: AwakeInstant { AwakeInstant(sinceOrigin: Self.origin.duration(to: .now)) }

    /// GLib's timeouts count whole milliseconds.
    public var minimumResolution: Duration { .milliseconds(1) }

    public func sleep(until deadline: AwakeInstant, tolerance: Duration?) async throws {
        try await SuspendingClock().sleep(for: now.duration(to: deadline), tolerance: tolerance)
    }

    public var wallNow: WallInstant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return WallInstant(sinceEpoch: .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec))
    }

    public func wake(at deadline: AwakeInstant, _ handler: @escaping @Sendable () -> Void) -> any ScheduledWake {
        // Rounded up: a wake-up a hair early would find its deadline not yet reached.
        let delay = Duration.milliseconds(max(0, now.duration(to: deadline).inMillisecondsRoundedUp))
        return LoopWake(source: loop.timer(after: delay) {
            handler()
            return .remove
        })
    }

    public func makeWallTimer(_ handler: @escaping @Sendable (WallTimerEvent) -> Void) throws -> any WallTimer {
        try LoopWallTimer(loop: loop, handler)
    }
}

/// A loop timer as a ``ScheduledWake``.
private struct LoopWake: ScheduledWake {
    let source: EventSource
    func cancel() { source.cancel() }
}

/// EventLoop's timerfd-backed ``WallClockTimer`` as a ``WallTimer``.
private final class LoopWallTimer: WallTimer {
    private let timer: WallClockTimer

    init(loop: EventLoop, _ handler: @escaping @Sendable (WallTimerEvent) -> Void) throws {
        timer = try WallClockTimer(loop: loop) { event in
            handler(event == .clockChanged ? .clockChanged : .expired)
        }
    }

    func arm(at instant: WallInstant?) {
        timer.arm(at: instant.map { Date(timeIntervalSince1970: $0.secondsSinceEpoch) })
    }
}
