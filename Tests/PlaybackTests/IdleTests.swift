import EventLoop
import Foundation
import Playback
import Testing
import TestSupport

/// A paused engine makes no wake-ups. Measured in a child run of this test binary, so that no
/// other test's threads share the process while the threads are counted.
@Suite struct IdleTests {
    static let probeVariable = "LINNET_IDLE_PROBE"
    static var isProbe: Bool { ProcessInfo.processInfo.environment[probeVariable] != nil }

    @Test(.enabled(if: !isProbe))
    func pausedEngineMakesNoWakeUps() async throws {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let result = try await offPool {
            try ExternalTool.run(
                binary, ["--testing-library", "swift-testing", "--filter", "IdleTests.idleProbe"],
                environment: [Self.probeVariable: "1"], timeout: .seconds(60))
        }
        let report = result.stdout.split(separator: "\n").first { $0.hasPrefix("IDLE ") }
        let line = try #require(report, "probe printed nothing: \(result.stdout) \(result.stderr)")
        print(result.stdout.split(separator: "\n").filter { $0.hasPrefix("thread") }.joined(separator: "\n"))
        print(line)
        let fields = Dictionary(uniqueKeysWithValues: line.dropFirst(5).split(separator: " ").compactMap {
            part -> (String, Double)? in
            let pair = part.split(separator: "=")
            guard pair.count == 2, let value = Double(pair[1]) else { return nil }
            return (String(pair[0]), value)
        })
        #expect(result.status == 0)
        #expect(fields["loop"] == 0)
        #expect(fields["gstreamer"] == 0)
    }

    /// Runs only inside the child: pauses an engine for 5 s and counts context switches of the
    /// loop thread and of GStreamer's threads (named after their pads, "element:pad").
    @Test(.enabled(if: isProbe))
    func idleProbe() async throws {
        let media = try MediaFactory()
        let uri = try media.indexedWAV("a.wav", frames: 44_100 * 3)
        let engine = GStreamerEngine(output: .description("fakesink sync=true"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        engine.play()
        let playing = try await log.wait(for: "playing") { $0.isState(.playing) }
        engine.pause()
        try await log.wait(for: "paused", after: playing.index) { $0.isState(.paused) }
        // Foundation does not pass Thread.name on to Linux here, so find the loop thread by id.
        let loopThread = EventLoop.shared.sync {
            // "/proc/thread-self" links to "<pid>/task/<tid>" for the calling thread.
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "")
                .split(separator: "/").last.map(String.init) ?? ""
        }
        // Paused, upstream threads still fill their queues until they block; on a loaded machine
        // that takes a while. Wait (up to 5 s) for a quiet 300 ms window before measuring, so
        // the measurement sees steady state rather than the tail of the pause.
        for _ in 0..<16 {
            let start = ThreadCounters.sample()
            try await Task.sleep(for: .milliseconds(300))
            let end = ThreadCounters.sample()
            let busy = end.contains { id, thread in
                (thread.name.contains(":") || id == loopThread) && thread.switches != (start[id]?.switches ?? thread.switches)
            }
            if !busy { break }
        }

        let before = ThreadCounters.sample()
        let cpuBefore = ThreadCounters.processCPUSeconds()
        try await Task.sleep(for: .seconds(5))
        let after = ThreadCounters.sample()
        let cpu = ThreadCounters.processCPUSeconds() - cpuBefore
        var loop = 0, gstreamer = 0
        for (id, thread) in after {
            let switches = thread.switches - (before[id]?.switches ?? 0)
            if id == loopThread { loop += switches }
            if thread.name.contains(":") { gstreamer += switches }
            if switches > 0 { print("thread \(thread.name): \(switches) wake-ups while paused") }
        }
        print("threads: \(after.values.map(\.name).sorted()), loop thread \(after[loopThread]?.name ?? "missing")")
        #expect(after[loopThread] != nil)
        print("IDLE loop=\(loop) gstreamer=\(gstreamer) cpu=\(cpu) seconds=5")
    }
}

/// Per-thread context-switch counts from /proc.
enum ThreadCounters {
    struct Thread { let name: String; let switches: Int }

    static func sample() -> [String: Thread] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var threads: [String: Thread] = [:]
        for id in tasks {
            let base = "/proc/self/task/\(id)"
            guard let name = try? String(contentsOfFile: base + "/comm", encoding: .utf8),
                  let status = try? String(contentsOfFile: base + "/status", encoding: .utf8) else { continue }
            let switches = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                .reduce(0, +)
            threads[id] = Thread(name: name.trimmingCharacters(in: .whitespacesAndNewlines), switches: switches)
        }
        return threads
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
