import PlayerTestKit
import Synchronization
import Testing
import Timekeeping

/// PlayerTestKit's manual clock: wake-ups in deadline order at their own instants, the two
/// timelines, and Swift's `Clock.sleep` driven by hand.
@Suite struct ManualClockTests {
    private final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private let start = WallInstant(secondsSinceEpoch: 1_000_000)

    @Test func wakeUpsRunInDeadlineOrderEachAtItsOwnInstant() throws {
        let clock = ManualClock(wall: start)
        let log = Log()
        _ = clock.wake(at: .origin + .seconds(5)) { log.append("5 at \(clock.now.sinceOrigin)") }
        _ = clock.wake(at: .origin + .seconds(2)) {
            log.append("2 at \(clock.now.sinceOrigin)")
            // Armed from a handler, due within the same advance: it runs in it, in order.
            _ = clock.wake(at: clock.now + .seconds(1)) { log.append("3 at \(clock.now.sinceOrigin)") }
        }
        let cancelled = clock.wake(at: .origin + .seconds(4)) { log.append("cancelled") }
        cancelled.cancel()
        let timer = try clock.makeWallTimer { event in log.append("wall \(event) at \(clock.wallNow.sinceEpoch - .seconds(1_000_000))") }
        timer.arm(at: start + .seconds(4))

        clock.advance(by: .seconds(10))
        #expect(log.all == ["2 at 2.0 seconds", "3 at 3.0 seconds", "wall expired at 4.0 seconds", "5 at 5.0 seconds"])
        #expect(clock.now == .origin + .seconds(10))
        #expect(clock.wallNow == start + .seconds(10))
        #expect(clock.pendingWakeUps == 0)
    }

    @Test func aSuspendMovesOnlyTheWallClockAndSettingItTellsArmedWallTimers() throws {
        let clock = ManualClock(wall: start)
        let log = Log()
        _ = clock.wake(at: .origin + .seconds(60)) { log.append("awake") }
        let timer = try clock.makeWallTimer { event in log.append("wall \(event)") }
        timer.arm(at: start + .seconds(30))
        clock.sleepMachine(for: .seconds(3600))
        #expect(log.all == ["wall expired"], "the wall timer fires on waking; awake time did not pass")
        #expect(clock.now == .origin)
        timer.arm(at: start + .seconds(7200))
        clock.setWallClock(to: start)
        #expect(log.all == ["wall expired", "wall clockChanged"])
        #expect(clock.pendingWakeUps == 1, "the set disarmed the wall timer; the awake wake-up waits")
    }

    @Test func sleepReturnsWhenTimeIsAdvancedAndThrowsWhenCancelled() async throws {
        let clock = ManualClock(wall: start)
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        while clock.pendingWakeUps == 0 { await Task.yield() }
        clock.advance(by: .seconds(30))
        try await sleeper.value

        let cancelled = Task { try await clock.sleep(for: .seconds(30)) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.pendingWakeUps == 0, "a cancelled sleep leaves no wake-up behind")
    }
}
