import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// Bad input on the bus: the real daemon takes randomised calls — random members, signatures
/// and values on every interface, hostile paths and interfaces, random runs of valid commands,
/// and the clock features driven the way a busy client drives them (alarms due within seconds,
/// many at one instant, snoozed and dismissed through Next/Stop; short sleep timers; 1 s
/// Pomodoro phases; floods sent without waiting for answers) — and after every batch must still
/// answer Ping, stay alive, publish a consistent PlaybackStatus/Metadata/Tracks and keep its
/// memory bounded. Every reply must be a success or a properly named D-Bus error.
/// `LINNET_FUZZ_SECONDS` and `LINNET_FUZZ_SEED` override the CI budget and the seed; the seed is
/// printed so a failure replays the same calls (bursts are pipelined, so the order in which
/// linnet handles the calls inside one burst, and the clock, may differ).
@Suite(.serialized) struct BusFuzzTests {
    static let defaultSeed: UInt64 = 0x11AE_7F05_2025
    static let batchSize = 50
    static let callTimeout: Duration = .seconds(10)
    static let rssLimitKB = 300 * 1024

    @Test(.timeLimit(.minutes(30))) func busFuzz() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["LINNET_FUZZ_SECONDS"].flatMap(Double.init) ?? 15
        let seed = environment["LINNET_FUZZ_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        print("BusFuzz: seed \(seed), budget \(seconds) s (LINNET_FUZZ_SEED=\(seed) replays this run)")

        let world = try LinnetWorld()
        let files = try await [
            world.makeTrack("f1.ogg", title: "Fuzz One", seconds: 2),
            world.makeTrack("f2.ogg", title: "Fuzz Two", seconds: 2),
            world.makeTrack("f3.ogg", title: "Fuzz Three", seconds: 2),
        ]
        // A file that is not audio at all, for the "bogus" half of OpenUri/AddTrack.
        let broken = world.media.appendingPathComponent("broken.ogg").path
        try Data("this is not an ogg file".utf8).write(to: URL(fileURLWithPath: broken))
        let playlists = world.home.appendingPathComponent("data/linnet/playlists")
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        try (files.joined(separator: "\n") + "\n").write(
            to: playlists.appendingPathComponent("fuzz.m3u"), atomically: true, encoding: .utf8)
        let playlist = playlists.appendingPathComponent("fuzz.m3u").path
        // A ring limit of a few seconds: unanswered alarms end by themselves too, so the limit's
        // timer races the client's Next/Stop.
        let ringLimit = 1 + seed % 3
        try await world.start(["--no-resume", "--ring-limit", "\(ringLimit)s", "--effects-sink", "fakesink sync=true"] + files)
        guard let pid = world.process?.processIdentifier else { throw TestSupportError("linnet did not start") }
        let debugger = BusFuzzDebugger.requested
            ? try BusFuzzDebugger(target: pid, output: world.home.appendingPathComponent("gdb.txt").path) : nil

        var fuzzer = BusFuzzer(world: world, seed: seed, files: files, bogusFiles: [broken, world.media.path], playlistPath: playlist)
        let deadline = ContinuousClock.now + .seconds(seconds)
        var peakRSS = 0
        var rssSamples: [Int] = []
        let started = ContinuousClock.now
        var nextSample = started + .seconds(FuzzMemorySample.interval)
        while ContinuousClock.now < deadline, !fuzzer.report.stopped {
            // Once linnet is gone (or its loop stops answering Ping) every further call fails the
            // same way: stop there. A single unanswered call is recorded and the run goes on, so a
            // long run also reports what comes after it.
            for _ in 0..<Self.batchSize where !fuzzer.report.stopped { await fuzzer.sendOne() }
            await fuzzer.checkInvariants(pid: pid)
            let rss = Self.residentKB(pid) ?? 0
            peakRSS = max(peakRSS, rss)
            rssSamples.append(rss)
            if rss > Self.rssLimitKB { fuzzer.report.stop("RSS \(rss) kB over \(Self.rssLimitKB) kB") }
            if ContinuousClock.now >= nextSample {
                nextSample = ContinuousClock.now + .seconds(FuzzMemorySample.interval)
                let sample = FuzzMemorySample(
                    seconds: FuzzReport.seconds(since: started), pid: pid, queueLength: fuzzer.factory.knownTracks.count)
                print("BusFuzz sample: \(sample)")
            }
        }
        if await fuzzer.linnetIsAlive() {
            // What a long run ends with, for `Benchmarks/fuzz/run.sh`.
            let sample = FuzzMemorySample(
                seconds: FuzzReport.seconds(since: started), pid: pid, queueLength: fuzzer.factory.knownTracks.count)
            print("BusFuzz final: \(sample)")
        }
        // Growth check: the last quarter of the run may not sit far above the first quarter.
        if rssSamples.count >= 8 {
            let quarter = rssSamples.count / 4
            let early = rssSamples[quarter..<(2 * quarter)].max() ?? 0
            let late = rssSamples.suffix(quarter).min() ?? 0
            print("BusFuzz: RSS early \(early) kB, late \(late) kB")
            // Caches may fill once; steady growth past that is a leak.
            if late > early + 100 * 1024 { fuzzer.report.fail("RSS grew from \(early) kB to \(late) kB") }
        }
        if !fuzzer.report.stopped { await fuzzer.checkFinalRoundTrip() }
        var gdbReport: String?
        if let debugger {
            // gdb holds a faulted linnet stopped (so calls hang rather than fail) until it has
            // printed; killing linnet ends gdb.
            world.kill()
            gdbReport = await debugger.crashReport()
            if gdbReport != nil, fuzzer.report.crashes == 0 { fuzzer.report.crashes = 1 }
        }
        let report = fuzzer.report
        let errors = report.errors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        let clockSignals = ["AlarmRinging", "AlarmMissed", "SleepTimerFired", "PomodoroPhaseChanged"].map { member in
            "\(member)=\(world.signals.values.count { $0.member.rawValue == member })"
        }.joined(separator: ", ")
        print("""
            BusFuzz report: seed \(seed), ring limit \(ringLimit) s, \(String(format: "%.1f", FuzzReport.seconds(since: report.started))) s, \
            calls sent \(report.sent) (\(report.bursts) bursts), successes \(report.successes), \
            refused by the client \(report.refusedLocally), errors by name [\(errors)], \
            clock signals [\(clockSignals)], \
            crashes \(report.crashes), hangs \(report.hangs), wrong answers \(report.wrongAnswers.count), \
            batches \(report.batches), peak RSS \(peakRSS / 1024) MB
            """)
        if let first = report.firstFailure {
            print("BusFuzz: first failure at call \(first.call), \(String(format: "%.1f", first.seconds)) s into the run")
        }
        for line in report.wrongAnswers.prefix(20) { print("BusFuzz wrong answer: \(line)") }
        for line in report.failures.prefix(20) { print("BusFuzz failure: \(line)") }
        if let process = world.process, !process.isRunning {
            print("BusFuzz: linnet exited: reason \(process.terminationReason.rawValue) status \(process.terminationStatus)")
        }
        if let gdbReport { print("BusFuzz: gdb saw:\n" + gdbReport) }
        if !report.failures.isEmpty {
            print("BusFuzz: the last \(fuzzer.recent.count) calls sent:\n" + fuzzer.recent.joined(separator: "\n"))
            let lines = world.log.split(separator: "\n").filter { !$0.contains("debug") }
            print("BusFuzz: linnet's log ends:\n" + lines.suffix(40).joined(separator: "\n"))
        }
        #expect(report.crashes == 0)
        #expect(report.hangs == 0)
        #expect(report.wrongAnswers.isEmpty, "\(report.wrongAnswers.prefix(5))")
        #expect(report.failures.isEmpty, "\(report.failures.prefix(5))")
        #expect(report.sent > 0)
        world.kill()
    }

    /// VmRSS of `pid` in kB.
    static func residentKB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}

/// Counts of what happened, for the report and the assertions.
struct FuzzReport {
    var sent = 0
    var successes = 0
    var refusedLocally = 0
    var errors: [String: Int] = [:]
    var crashes = 0
    var hangs = 0
    var batches = 0
    /// Groups of calls sent together without waiting for each answer.
    var bursts = 0
    var wrongAnswers: [String] = []
    var failures: [String] = []

    /// Whether the run ended early (linnet died, or stopped answering Ping).
    var stopped = false
    /// Calls sent and seconds into the run at the first failure.
    var firstFailure: (call: Int, seconds: Double)?
    let started = ContinuousClock.now

    mutating func fail(_ reason: String) {
        if firstFailure == nil { firstFailure = (sent, Self.seconds(since: started)) }
        failures.append(reason)
    }

    /// Records `reason` and ends the run.
    mutating func stop(_ reason: String) {
        fail(reason)
        stopped = true
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let duration = start.duration(to: .now)
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
