import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// Synced lyrics as a lock screen sees them: the built linnet, an .lrc next to the track, a
/// test-owned screen saver on the private bus, and CurrentLyric's PropertiesChanged recorded
/// with their arrival times. Order and outcome are asserted; lateness is measured and printed.
@Suite(.serialized) struct SyncedLyricsTests {
    /// Lines 0.5 s apart: "line 1" at 0.5 s … "line 20" at 10.0 s.
    static let lrc = (1...20).map { String(format: "[00:%05.2f]line %d", Double($0) * 0.5, $0) }.joined(separator: "\n")

    static func index(of line: String) -> Int? { Int(line.dropFirst("line ".count)) }

    @Test(.timeLimit(.minutes(2)))
    func currentLyricChangesAtEachLineNotWhilePausedOrLockedAndSeekingReArms() async throws {
        let world = try LinnetWorld()
        let screenSaver = try FakeScreenSaver(address: world.bus.address)
        let track = try await world.makeTrack("sung.ogg", title: "Sung", seconds: 14)
        try Self.lrc.write(toFile: world.media.appendingPathComponent("sung.lrc").path, atomically: true, encoding: .utf8)
        let changes = try LyricChanges(world)
        try await world.start(["--no-resume", "--paused", track])
        try await world.waitUntil("the synced lines") { try await world.syncedLineCount() == 20 }
        guard case .objectPath(let trackID)? = try await world.player("Metadata")["mpris:trackid"] else {
            Issue.record("no track id")
            return
        }
        let player = world.proxy(MPRISNames.player)

        // Playing: every line in order, each one once (on a loaded machine the pause may land a
        // few lines after line 4: every line up to it, none skipped).
        let played = ContinuousClock.now
        try await player.call("Play")
        try await changes.waitFor("line 4")
        try await player.call("Pause")
        let pausedAt = changes.count
        let lastBeforeLock = try #require(changes.lines.last.flatMap(Self.index))
        #expect(changes.lines == (1...lastBeforeLock).map { "line \($0)" })
        let arrivals = changes.arrivals(ofLines: 1...lastBeforeLock)
        // Lateness against the first line's arrival (the start of playback has its own latency).
        let lateness = (1..<arrivals.count).map { k in
            Self.milliseconds(arrivals[k] - arrivals[0]) - Double(k) * 500
        }
        print("lyrics lateness after line 1, ms (lines 2-\(lastBeforeLock)): \(lateness.map { String(format: "%.1f", $0) }); "
              + "line 1 arrived \(String(format: "%.1f", Self.milliseconds(arrivals[0] - played))) ms after Play was sent (500 ms due)")

        // Paused: the clock stands, so nothing changes and no timer runs.
        try await Task.sleep(for: .milliseconds(1200))
        #expect(changes.count == pausedAt, "changed while paused: \(changes.lines)")
        #expect(try await world.currentLyric() == "line \(lastBeforeLock)")

        // Locked: playing on, but no line is announced while nobody can see it.
        try await screenSaver.setActive(true, confirmingWith: LinnetWorld.playerName)
        try await player.call("Play")
        // Until two more lines have begun (by the position, not the wall clock: a loaded machine
        // may take a while to start playing again).
        try await world.waitUntil("two lines played while locked") {
            Self.lineIndex(at: try await world.positionMicroseconds()) >= lastBeforeLock + 2
        }
        #expect(changes.count == pausedAt, "changed while the screen saver was active: \(changes.lines)")
        let beforeUnlock = try await world.positionMicroseconds()
        // Unlocked: the line catches up at once, skipping what was sung meanwhile.
        try await screenSaver.setActive(false, confirmingWith: LinnetWorld.playerName)
        try await changes.waitForCount(pausedAt + 1)
        let afterUnlock = try await world.positionMicroseconds()
        // The catch-up is the first change after the unlock, decided between the two reads. Not
        // the last change seen: the timer's next line may arrive after `afterUnlock` was read.
        let caughtUp = try #require(Self.index(of: changes.lines[pausedAt]))
        #expect(caughtUp >= Self.lineIndex(at: beforeUnlock) && caughtUp <= Self.lineIndex(at: afterUnlock),
                "caught up to line \(caughtUp) between positions \(beforeUnlock) and \(afterUnlock)")
        // Two or more lines went by unannounced while the screen was off.
        #expect(caughtUp >= lastBeforeLock + 2, "the line did not move on while the screen was off")

        // A seek back re-arms the timer: the target's line at once, then the line after it.
        let seekCount = changes.count
        try await player.call("SetPosition", [.objectPath(trackID), .int64(1_200_000)])
        let sought = ContinuousClock.now
        try await changes.waitFor("line 3", after: seekCount)
        // A line due just before the seek may still come first; then the target's, then the next.
        let afterSeek = Array(changes.lines[seekCount...])
        let fromTarget = afterSeek.drop { $0 != "line 2" }
        #expect(fromTarget.starts(with: ["line 2", "line 3"]) && afterSeek.count - fromTarget.count <= 1, "after the seek: \(afterSeek)")
        if let line3 = changes.arrivals(ofLines: 3...3, after: seekCount).first {
            print("lyrics: line 3 arrived \(String(format: "%.1f", Self.milliseconds(line3 - sought))) ms after the seek's reply (300 ms due)")
        }
        try await player.call("Pause")

        // The daemon's own account: how far past each line's stamp the position was when announced.
        let late = world.log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: " ms after it starts") else { return nil }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
        }
        let early = world.log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: " early wake-ups before it") else { return nil }
            return Int(line[..<range.lowerBound].split(separator: "(").last ?? "")
        }
        print("lyrics: position past each line's stamp when linnet announced it, ms: \(late); early timer wake-ups before each: \(early)")
        world.kill()
    }

    @Test(.timeLimit(.minutes(2)))
    func theLyricsCommandPrintsAndFollowsAndSaysWhenThereIsNothingToShow() async throws {
        let world = try LinnetWorld()
        let sung = try await world.makeTrack("sung.ogg", title: "Sung", seconds: 3)
        let spoken = try await world.makeTrack("spoken.ogg", title: "Spoken", seconds: 30)
        try Self.lrc.write(toFile: world.media.appendingPathComponent("sung.lrc").path, atomically: true, encoding: .utf8)
        try "Only plain words".write(toFile: world.media.appendingPathComponent("spoken.txt").path, atomically: true, encoding: .utf8)
        try await world.start(["--no-resume", "--paused", sung, spoken])
        try await world.waitUntil("the synced lines") { try await world.syncedLineCount() == 20 }

        // Paused at the start: before the first line, an empty line.
        let first = try await world.cli("lyrics")
        #expect(first.status == 0 && first.stdout == "\n", "\(first)")

        // Following from just after the start to the track's end: lines in order, then exit 0.
        try await world.proxy(MPRISNames.player).call("Play")
        let followed = try await world.cli("lyrics", "--follow")
        #expect(followed.status == 0, "\(followed)")
        let printed = followed.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let indices = printed.compactMap(Self.index)
        #expect(printed.count >= 3 && indices == indices.sorted() && Set(indices).count == indices.count, "\(printed)")
        // The track is 3 s long: its last line is line 5 (2.5 s).
        #expect(printed.last == "line 5", "\(printed)")

        // The next track has only plain lyrics: MPRIS shows them, `lyrics` says there are no synced ones.
        try await world.waitUntil("the plain track") { try await world.title() == "Spoken" }
        try await world.waitUntil("its plain lyrics") { try await world.player("Metadata")["xesam:asText"] == .string("Only plain words") }
        let plain = try await world.cli("lyrics")
        #expect(plain.status == 4 && plain.stderr.contains("no synced lyrics"), "\(plain)")

        try await world.proxy(MPRISNames.player).call("Stop")
        let stopped = try await world.cli("lyrics")
        #expect(stopped.status == 3 && stopped.stderr.contains("nothing is playing"), "\(stopped)")
        world.kill()
    }

    /// A folder's tracks are read while ordering it, so the player never scans them itself: the
    /// lyrics files beside them must come along (they did not).
    @Test(.timeLimit(.minutes(1)))
    func aFolderGivenOnTheCommandLineBringsItsLyricsFiles() async throws {
        let world = try LinnetWorld()
        _ = try await world.makeTrack("spoken.ogg", title: "Spoken", seconds: 30)
        _ = try await world.makeTrack("sung.ogg", title: "Sung", seconds: 30)
        try Self.lrc.write(toFile: world.media.appendingPathComponent("sung.lrc").path, atomically: true, encoding: .utf8)
        try "Only plain words".write(toFile: world.media.appendingPathComponent("spoken.txt").path, atomically: true, encoding: .utf8)
        try await world.start(["--no-resume", "--paused", world.media.path])
        try await world.waitUntil("the first track") { try await world.title() == "Spoken" }
        #expect(try await world.player("Metadata")["xesam:asText"] == .string("Only plain words"))
        try await world.proxy(MPRISNames.player).call("Next")
        try await world.waitUntil("the second track") { try await world.title() == "Sung" }
        #expect(try await world.syncedLineCount() == 20)
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func aPausedTrackWithSyncedLyricsWakesNoThreadForThem() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("sung.ogg", title: "Sung", seconds: 30)
        try Self.lrc.write(toFile: world.media.appendingPathComponent("sung.lrc").path, atomically: true, encoding: .utf8)
        let changes = try LyricChanges(world)
        try await world.start(["--no-resume", "--paused", track])
        let pid = try #require(world.process?.processIdentifier)
        try await world.waitUntil("the synced lines") { try await world.syncedLineCount() == 20 }
        try await world.proxy(MPRISNames.player).call("Play")
        try await changes.waitFor("line 2")
        try await world.proxy(MPRISNames.player).call("Pause")
        // Let the pause settle: the engine winds down, the inhibitor's release delay passes.
        try await Task.sleep(for: .seconds(7))
        let announced = changes.count
        let paused = try await ClockTimerTests.wakeUps(pid, over: .seconds(3))
        print("lyrics: wake-ups per thread over 3 s, paused between two lines: \(paused.sorted { $0.key < $1.key })")
        // The loop thread carries the lyric timer (and every D-Bus and GStreamer event).
        #expect(paused["linnet.loop"] == 0)
        #expect(changes.count == announced)
        #expect(try await world.currentLyric() == changes.lines.last)
        world.kill()
    }

    static func lineIndex(at position: Int64) -> Int { Int(position / 500_000) }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// CurrentLyric's PropertiesChanged as the test client receives them, with arrival times.
private final class LyricChanges: Sendable {
    private let recorder = Recorder<(ContinuousClock.Instant, String)>()
    private let subscription: DBusSubscription

    init(_ world: LinnetWorld) throws {
        let recorder = self.recorder
        subscription = try world.client.subscribe(MatchRule(
            path: MPRISNames.objectPath, interface: .properties, member: "PropertiesChanged",
            arguments: [0: LinnetWorld.linnetInterface.rawValue])
        ) { signal in
            guard signal.arguments.count >= 2, case .string(let line)? = signal.arguments[1]["CurrentLyric"] else { return }
            recorder.record((.now, line))
        }
    }

    var lines: [String] { recorder.values.map(\.1) }
    var count: Int { recorder.values.count }

    func arrivals(ofLines numbers: ClosedRange<Int>, after start: Int = 0) -> [ContinuousClock.Instant] {
        numbers.compactMap { number in recorder.values[start...].first { $0.1 == "line \(number)" }?.0 }
    }

    func waitFor(_ line: String, after start: Int = 0) async throws {
        try await waitForCondition("\(line) (seen: \(lines))") { self.lines[start...].contains(line) }
    }

    func waitForCount(_ count: Int) async throws {
        try await waitForCondition("\(count) changes (seen: \(lines))") { self.count >= count }
    }

    /// Polls the test's own recorder (not the daemon) until `condition` holds.
    private func waitForCondition(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + Duration.seconds(20).scaledForSanitizers
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestSupportError("timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    deinit { subscription.cancel() }
}

extension LinnetWorld {
    /// How many synced lines GetSyncedLyrics returns now.
    func syncedLineCount() async throws -> Int {
        guard case .array(_, let lines)? = try await clock.call("GetSyncedLyrics").first else { return -1 }
        return lines.count
    }

    /// CurrentLyric, read with Get.
    func currentLyric() async throws -> String? {
        if case .string(let line) = try await clock.property("CurrentLyric") { return line }
        return nil
    }

    /// The player's Position.
    func positionMicroseconds() async throws -> Int64 {
        if case .int64(let position) = try await player("Position") { return position }
        return -1
    }
}
