import Foundation
import MPRIS
import Testing
import TestSupport

/// The command line's rough edges from issue 17, each as a user meets it: the exit status of
/// an unknown alarm id, dates on alarms not today, one state word in `status`, the start-up log
/// line, and SIGTERM while playing through a real sound server.
@Suite(.serialized) struct CommandLineEdgeTests {
    @Test(.timeLimit(.minutes(1)))
    func cancellingAnUnknownAlarmHasItsOwnStatusAndMessage() async throws {
        let world = try LinnetWorld()
        try await world.start(["--no-resume", "--paused"])
        let unknown = try await world.cli("cancel", "99")
        #expect(unknown.status == 65)
        #expect(unknown.stderr == "linnet: no alarm has id 99 (see `linnet alarms`)\n", "\(unknown.stderr)")
        // Bad usage keeps its own status.
        #expect(try await world.cli("cancel", "soon").status == 64)
        let refusal: String
        do {
            _ = try await world.clock.call("CancelAlarm", [.uint32(99)])
            refusal = "none"
        } catch {
            refusal = error.name.rawValue
        }
        #expect(refusal == "org.freedesktop.DBus.Error.InvalidArgs")
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func alarmsOnAnotherDayShowTheirDate() async throws {
        let world = try LinnetWorld()
        try await world.start(["--no-resume", "--paused"])
        // Two days ahead at 07:00 local time: never today, whenever the test runs.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let day = calendar.date(byAdding: .day, value: 2, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        let date = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        let set = try await world.cli("alarm", "\(date)T07:00", "--label", "Later")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.output == "alarm 1 set for \(date) 07:00")
        let listed = try await world.cli("alarms")
        #expect(listed.output.hasPrefix("1\t\(date) 07:00\t"), "\(listed.output)")
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func statusNamesThePlayerStateOnce() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("song.ogg", title: "The Song", seconds: 120)
        try await world.start(["--no-resume", "--paused", track])
        try await world.waitForScannedQueue()
        #expect(try await world.cli("pomodoro", "--work", "25m").status == 0)
        try await world.waitUntil("the Pomodoro's music") { try await world.player("PlaybackStatus") == .string("Playing") }
        try await world.playerctl("play-pause")
        try await world.waitUntil("paused") { try await world.player("PlaybackStatus") == .string("Paused") }
        #expect(try await world.title() == "Paused — Focus 1 of 4 · 25 min left")
        let status = try await world.cli("status")
        #expect(status.status == 0, "\(status.stderr)")
        let lines = status.output.split(separator: "\n")
        #expect(lines.first == "player: Paused — The Song", "\(status.output)")
        #expect(lines.contains { $0.hasPrefix("pomodoro: Focus 1 of 4, ") && $0.hasSuffix(" left (paused)") }, "\(status.output)")
        #expect(status.output.components(separatedBy: "Paused").count == 2, "\(status.output)")
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func theStartLineDoesNotSayPlayingWhenResumingPaused() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("song.ogg", title: "Resumed", seconds: 30)
        try await world.start(["--no-resume", "--paused", track])
        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)
        try await world.start([])
        #expect(try await world.player("PlaybackStatus") == .string("Paused"))
        // Logged just after the name is taken.
        try await world.waitUntil("the start line") {
            world.log.contains("on the bus as org.mpris.MediaPlayer2.linnet; control it with: playerctl -p linnet play-pause")
        }
        #expect(!world.log.contains("playing as"))
        world.kill()
    }

    /// SIGTERM while playing through PulseAudio: the session is saved with where playback was
    /// and linnet exits 0. How long it takes is printed, not asserted (a busy machine).
    @Test(.enabled(if: SoundServer.isInstalled), .timeLimit(.minutes(1)))
    func sigtermWhilePlayingThroughASoundServerSavesAndExitsZero() async throws {
        let world = try LinnetWorld()
        let directory = world.home.path
        let server = try await offPool { try SoundServer(in: directory) }
        defer { server.stop() }
        let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
        try await world.start(["--no-resume", track], sink: "pulsesink server=\(server.address)")
        try await world.waitUntil("playing past 1 s") {
            guard case .int64(let position) = try await world.player("Position") else { return false }
            return position > 1_000_000
        }
        guard case .int64(let before) = try await world.player("Position") else { return }
        let signalled = ContinuousClock.now
        world.send(SIGTERM)
        let status = try await world.waitForExit()
        let elapsed = ContinuousClock.now - signalled
        let steps = world.log.split(separator: "\n").first { $0.contains("stopped in") }.map(String.init) ?? "no timing logged"
        print("SIGTERM while playing through PulseAudio: exited \(String(describing: status)) after \(elapsed) (polled every 20 ms); \(steps)")
        #expect(status == 0, "log:\n\(world.log.suffix(2000))")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: world.sessionFile)) as? [String: Any]
        let state = saved?["state"] as? [String: Any]
        let position = (state?["positionMicroseconds"] as? NSNumber)?.int64Value ?? -1
        #expect(position >= before, "saved \(position) µs, read \(before) µs before the signal")
    }
}
