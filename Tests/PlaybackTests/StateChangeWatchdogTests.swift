import Dispatch
@testable import Playback
import Synchronization
import Testing

/// The watchdog's alarm and the change it guards can finish in either order; the caller must see
/// what the alarm's handler decided whenever the alarm went off.
@Suite struct StateChangeWatchdogTests {
    @Test(.timeLimit(.minutes(1))) func aChangeThatReturnsWhileTheAlarmIsBeingHandledWaitsForItsVerdict() {
        let alarmStarted = DispatchSemaphore(value: 0)
        let verdict = Atomic<Bool>(false)
        StateChangeWatchdog.guarding(patience: .milliseconds(1), onStuck: {
            alarmStarted.signal()
            // The handler takes its time (the engine building a replacement pipeline); the
            // change below returns meanwhile.
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(200))
            verdict.store(true, ordering: .releasing)
        }) {
            alarmStarted.wait()
        }
        let decided = verdict.load(ordering: .acquiring)
        #expect(decided, "returned before the alarm's handler had decided")
    }
}
