@testable import ClockRules
import DBus
import Foundation
import Testing
import TestSupport

/// Timers are one-shot deadlines, not polls: a paused linnet with an alarm two hours away, a
/// paused Pomodoro and an hour-long sleep timer does not wake its loop thread at all. Part of
/// the timer tests' lane.
extension ClockTimerTests {
    @Test(.timeLimit(.minutes(1)))
    func pendingTimersMakeNoWakeUps() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("t.ogg", title: "T", seconds: 60)
        try await world.start(["--no-resume", "--paused", track] + world.effectsArguments)
        let pid = try #require(world.process?.processIdentifier)
        try await Task.sleep(for: .seconds(2))
        let plain = try await Self.wakeUps(pid, over: .seconds(3))

        #expect(try await world.cli("alarm", "+2h", "--label", "Later").status == 0)
        #expect(try await world.cli("sleep", "1h").status == 0)
        #expect(try await world.cli("pomodoro").status == 0)
        try await world.waitUntil("the Pomodoro's music") { try await world.player("PlaybackStatus") == .string("Playing") }
        #expect(try await world.clock.call("TogglePomodoro") == [.boolean(true)])
        try await world.waitUntil("paused") { try await world.player("PlaybackStatus") == .string("Paused") }
        // Let the pause settle: the engine winds down, the inhibitor's release delay passes.
        try await Task.sleep(for: .seconds(7))
        let withTimers = try await Self.wakeUps(pid, over: .seconds(3))
        print("ClockIdle: wake-ups per thread over 3 s, paused: \(plain.sorted { $0.key < $1.key })")
        print("ClockIdle: the same with an alarm, a sleep timer and a paused Pomodoro pending: \(withTimers.sorted { $0.key < $1.key })")
        // The loop thread ("linnet.loop") carries every clock timer; the main thread ("linnet")
        // only waits for the end. Both must be there and both asleep: a missing name is a failure.
        #expect(withTimers["linnet.loop"] == 0, "loop thread: \(String(describing: withTimers["linnet.loop"]))")
        #expect(withTimers["linnet"] == 0, "main thread: \(String(describing: withTimers["linnet"]))")
        world.kill()
    }

    /// Context switches per thread name of `pid` during `window`.
    static func wakeUps(_ pid: Int32, over window: Duration) async throws -> [String: Int] {
        let before = switches(pid)
        try await Task.sleep(for: window)
        var woken: [String: Int] = [:]
        for (thread, count) in switches(pid) { woken[thread] = count - (before[thread] ?? 0) }
        return woken
    }

    /// Voluntary plus involuntary context switches per thread name, from /proc.
    static func switches(_ pid: Int32) -> [String: Int] {
        var result: [String: Int] = [:]
        let tasks = "/proc/\(pid)/task"
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let name = try? String(contentsOfFile: "\(tasks)/\(tid)/comm", encoding: .utf8),
                let status = try? String(contentsOfFile: "\(tasks)/\(tid)/status", encoding: .utf8)
            else { continue }
            let count = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                .reduce(0, +)
            result[name.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += count
        }
        return result
    }
}
