@testable import LinnetCore
import PlayerCore
import Synchronization
import Testing
import TestSupport

/// Effects that feed inputs back (the clock answering a request by driving the player again)
/// are queued behind the input being handled, never handled inside it: a long chain of them runs
/// on a flat stack. The crash this guards against was a stack overflow on the loop thread from
/// clock callbacks nested inside each other.
@Suite struct PlayerOwnerReentrancyTests {
    @Test func aLongChainOfInputsFedBackByEffectsRunsOnAFlatStack() async throws {
        try await withTimeout(.seconds(60), "re-entrancy chain") {
            try await ScriptedPlayer.run(uris: ["http://127.0.0.1:9/a.ogg", "http://127.0.0.1:9/b.ogg"]) { scripted in
                let player = scripted.player
                let chain = 50_000
                let answered = Atomic<Int>(0)
                let depth = Atomic<Int>(0)
                let deepest = Atomic<Int>(0)
                player.onClockRequest { request in
                    guard request == .snoozeAlarm else { return }
                    let level = depth.add(1, ordering: .relaxed).newValue
                    _ = deepest.max(level, ordering: .relaxed)
                    // Next while the alarm rings is a snooze again: each answer asks for another.
                    if answered.add(1, ordering: .relaxed).newValue < chain { player.send(.command(.next)) }
                    depth.subtract(1, ordering: .relaxed)
                }
                player.send(.clock(.alarmStarted(AlarmDisplay(id: 1, label: "Chain", soundURI: "file:///dev/null"))))
                player.send(.command(.next))
                // A round trip through the loop: the whole chain ran in the turn before it.
                _ = player.read(\.transport)
                #expect(answered.load(ordering: .relaxed) == chain)
                #expect(deepest.load(ordering: .relaxed) == 1, "answers were nested inside each other")
                #expect(player.queue.current?.uri == "http://127.0.0.1:9/a.ogg", "snoozes must not move the queue")
            }
        }
    }
}
