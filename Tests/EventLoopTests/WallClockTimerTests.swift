import EventLoop
import Foundation
import Testing
import TestSupport

/// The wall-clock timer (a CLOCK_REALTIME timerfd) fires at its instant on the loop thread.
/// Its clock-change event needs the system clock set, which a test on a shared machine must not
/// do; the daemon handles it the same way as an expiry followed by a re-plan.
@Suite struct WallClockTimerTests {
    @Test func expiresAtItsInstantOnTheLoopAndRearmingReplacesTheDeadline() async throws {
        let loop = EventLoop(name: "test.wallclock")
        defer { loop.stop() }
        let events = Recorder<(WallClockTimer.Event, Date, Bool)>()
        let timer = try WallClockTimer(loop: loop) { event in events.record((event, Date(), loop.isCurrentThread)) }
        let far = Date().addingTimeInterval(3600)
        timer.arm(at: far)
        let deadline = Date().addingTimeInterval(0.3)
        // Re-arming replaces the far deadline with the near one.
        timer.arm(at: deadline)
        try await waitUntil(.seconds(10), "the expiry") { !events.values.isEmpty }
        let (event, firedAt, onLoop) = try #require(events.values.first)
        #expect(event == .expired)
        #expect(firedAt >= deadline, "never early")
        #expect(onLoop)

        // A deadline in the past expires at once; disarming leaves it silent.
        timer.arm(at: Date().addingTimeInterval(-60))
        try await waitUntil(.seconds(10), "the past deadline") { events.values.count == 2 }
        timer.arm(at: Date().addingTimeInterval(0.2))
        timer.arm(at: nil)
        // A second timer due after the disarmed deadline is the witness that it stayed silent.
        let witness = Recorder<WallClockTimer.Event>()
        let later = try WallClockTimer(loop: loop) { witness.record($0) }
        later.arm(at: Date().addingTimeInterval(0.4))
        try await waitUntil(.seconds(10), "the witness") { !witness.values.isEmpty }
        loop.sync {}
        #expect(events.values.count == 2)
        withExtendedLifetime((timer, later)) {}
    }
}
