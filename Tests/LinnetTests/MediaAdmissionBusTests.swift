import DBus
import Foundation
import Glibc
import LibraryFormats
import MPRIS
import Testing
import TestSupport

/// One admission rule for local media on every way in — the command line, playlists, OpenUri
/// and AddTrack (issue 16) — checked against the running binary: the issue's cases get their
/// documented answers, a name that is not UTF-8 plays, and credentials in stream URIs reach
/// neither the log, nor MPRIS, nor the saved state.
@Suite struct MediaAdmissionBusTests {
    private static func refusal(_ call: () async throws -> [DBusValue]) async -> DBusError? {
        do {
            _ = try await call()
            return nil
        } catch {
            return error as? DBusError
        }
    }

    /// The queue's `xesam:url`s, in order.
    private static func queuedURLs(_ world: LinnetWorld) async throws -> [String] {
        let trackList = world.proxy(MPRISNames.trackList)
        let tracks = try await trackList.property("Tracks")
        guard case .array(_, let maps)? = try await trackList.call("GetTracksMetadata", [tracks]).first else { return [] }
        return maps.compactMap { map in
            if case .string(let url)? = map["xesam:url"] { return url }
            return nil
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func everyWayInAppliesTheSameRule() async throws {
        let world = try LinnetWorld()
        let first = try await world.makeTrack("first.ogg", title: "First", seconds: 60)
        let plain = try await world.makeTrack("plain.ogg", title: "Bad Name", seconds: 60)
        let badName = try #require(LocalPath(absolute: Array((world.media.path + "/bad").utf8) + [0xFF, 0xFE] + Array("name.ogg".utf8)))
        #expect(badName.withCString { rename(plain, $0) } == 0)
        defer { _ = badName.withCString { unlink($0) } }
        #expect(badName.uri.hasSuffix("/bad%FF%FEname.ogg"))
        // A folder holding a link named like a song that leads into /proc.
        let linked = world.media.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        #expect(symlink("/proc/self/environ", linked.appendingPathComponent("environ.ogg").path) == 0)
        let firstURI = FileURI.uri(forPath: first)
        let playlist = world.media.appendingPathComponent("hostile.m3u")
        try """
            file://evilhost/etc/passwd
            \(firstURI)?x=1#frag
            file:///proc/self/environ
            /proc/self/mem
            \(badName.uri)
            """.write(to: playlist, atomically: true, encoding: .utf8)

        try await world.start([
            "--no-resume", "--paused", first, "file:///proc/self/environ", "/proc/self/mem", "file://evilhost/etc/passwd",
            playlist.path, linked.path,
        ])
        #expect(try await Self.queuedURLs(world) == [firstURI, badName.uri])
        let log = world.log
        for expected in [
            "/proc/self/environ: a /proc, /sys or /dev entry", "/proc/self/mem: a /proc, /sys or /dev entry",
            "file://evilhost/etc/passwd: a file URI must name this machine", "cannot have a query",
            "environ.ogg: a /proc, /sys or /dev entry",
        ] {
            #expect(log.contains(expected), "the log does not say \"\(expected)\":\n\(log.suffix(4000))")
        }

        // Over the bus: the same answers from OpenUri and AddTrack.
        let player = world.proxy(MPRISNames.player)
        let trackList = world.proxy(MPRISNames.trackList)
        let noTrack = DBusValue.objectPath(TrackID.noTrack.path)
        let cases: [(uri: String, says: String)] = [
            ("file://evilhost/etc/passwd", "must name this machine"),
            (firstURI + "?x=1#frag", "cannot have a query (?…) or a fragment (#…)"),
            ("file:///proc/self/mem", "a /proc, /sys or /dev entry"),
            ("file:///proc/self/environ", "a /proc, /sys or /dev entry"),
            (FileURI.uri(forPath: linked.appendingPathComponent("environ.ogg").path), "a /proc, /sys or /dev entry"),
            ("file:///etc/shadow", "not a known audio file"),
            (FileURI.uri(forPath: linked.path), "a folder, not a file"),
        ]
        for (uri, says) in cases {
            let openError = await Self.refusal { try await player.call("OpenUri", [.string(uri)]) }
            let addError = await Self.refusal { try await trackList.call("AddTrack", [.string(uri), noTrack, .boolean(false)]) }
            for (member, error) in [("OpenUri", openError), ("AddTrack", addError)] {
                #expect(error?.name == .invalidArgs, "\(member) \(uri): \(String(describing: error))")
                #expect(error?.message.contains(says) == true, "\(member) \(uri): \(error?.message ?? "admitted")")
            }
        }
        #expect(try await Self.queuedURLs(world) == [firstURI, badName.uri])

        // The name that is not UTF-8 is admitted over the bus and plays: GStreamer read its tags.
        try await player.call("OpenUri", [.string(badName.uri)])
        try await world.waitUntil("the non-UTF-8 file playing") {
            let metadata = try await world.player("Metadata")
            let status = try await world.player("PlaybackStatus")
            return metadata["xesam:url"] == .string(badName.uri) && metadata["xesam:title"] == .string("Bad Name")
                && metadata["linnet:error"] == nil && status == .string("Playing")
        }
        world.kill()
    }

    @Test(.timeLimit(.minutes(3)))
    func noPasswordReachesTheLogMPRISOrTheSavedState() async throws {
        let world = try LinnetWorld()
        let local = try await world.makeTrack("local.ogg", title: "Local", seconds: 60)
        let streamed = try await world.makeTrack("streamed.ogg", title: "Streamed", seconds: 5)
        let body = try Data(contentsOf: URL(fileURLWithPath: streamed))
        // As a live stream (no length): a complete download answers the engine's seek with an error.
        let server = try LoopbackHTTPServer(body: body, contentType: "audio/ogg", behaviour: .closeAfter(bytes: body.count))
        defer { server.stop() }
        let secret = "s3cret\(UUID().uuidString.prefix(8))"
        let stream = "http://listener:\(secret)@127.0.0.1:\(server.port)/stream"
        let hostOnly = "http://listener:\(secret)@127.0.0.1:\(server.port)"
        let refused = "http://listener:\(secret)@/nohost"
        try await world.start(["--no-resume", "--paused", local, stream, refused])

        let trackList = world.proxy(MPRISNames.trackList)
        try await trackList.call("AddTrack", [.string(hostOnly), .objectPath(TrackID.noTrack.path), .boolean(false)])
        let openError = await Self.refusal { try await world.proxy(MPRISNames.player).call("OpenUri", [.string(refused)]) }
        #expect(openError?.name == .invalidArgs)
        #expect(openError?.message.contains(secret) == false, "\(String(describing: openError))")
        let alarm = try await world.clock.call("AddAlarm", [.string("+2h"), .stringVariantDictionary([("sound", .string(stream))])])
        #expect(alarm.first == .uint32(1))
        try await world.proxy(MPRISNames.player).call("OpenUri", [.string(stream)])
        try await world.waitUntil("the stream playing") {
            let status = try await world.player("PlaybackStatus")
            let title = try await world.title()
            return status == .string("Playing") && title == "Streamed"
        }

        let shown = [
            try await Self.queuedURLs(world).joined(separator: "\n"),
            "\(try await world.player("Metadata"))",
            "\(try await world.clock.call("ListAlarms"))",
            "\(try await world.clock.call("GetStatus"))",
        ].joined(separator: "\n")
        #expect(!shown.contains(secret), "MPRIS or Linnet1 shows the password:\n\(shown)")
        let urls = try await Self.queuedURLs(world)
        #expect(urls.contains("http://127.0.0.1:\(server.port)/stream") && urls.contains("http://127.0.0.1:\(server.port)"), "\(urls)")

        try await world.proxy(MPRISNames.root).call("Quit")
        #expect(try await world.waitForExit() == 0)
        let session = try String(contentsOf: world.sessionFile, encoding: .utf8)
        #expect(!session.contains(secret), "session.json holds the password")
        #expect(session.contains("http:\\/\\/127.0.0.1:\(server.port)\\/stream") || session.contains("http://127.0.0.1:\(server.port)/stream"))
        let alarms = try String(contentsOf: world.home.appendingPathComponent("state/linnet/alarms.json"), encoding: .utf8)
        #expect(!alarms.contains(secret), "alarms.json holds the password")
        let log = world.log
        #expect(!log.contains(secret), "the log holds the password:\n\(log.suffix(3000))")
        // The refused input was logged, without its credentials: the scrubbing was exercised.
        #expect(log.contains("http:///nohost"), "\(log.suffix(3000))")
    }

    @Test(.timeLimit(.minutes(3)))
    func aFloodOfTimerCallsIsFoldedIntoASummary() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("flood.ogg", title: "Flood", seconds: 60)
        let window = 3
        try await world.start(["--no-resume", "--paused", "--log-fold-window", "\(window)", track])
        let clock = world.clock
        let calls = 300
        let floodStart = ContinuousClock.now
        for _ in 0..<calls {
            try await clock.call("StartPomodoro", [.stringVariantDictionary([("work", .string("25m"))])])
            try await clock.call("StopPomodoro")
            try await clock.call("SetSleepTimer", [.double(600), .double(0)])
            try await clock.call("CancelSleepTimer")
        }
        let elapsed = ContinuousClock.now - floodStart
        // Ten lines per call site per window at most; the windows are counted from the time taken.
        let windows = Int((elapsed / .seconds(window)).rounded(.up)) + 1
        try await world.waitUntil("a summary of the folded lines", timeout: .seconds(30)) {
            world.log.contains("more in the last \(window) s")
        }
        let lines = world.log.split(separator: "\n")
        let started = lines.filter { $0.contains("Pomodoro: 4 × 25:00 focus") }.count
        let stopped = lines.filter { $0.hasSuffix("Pomodoro stopped") }.count
        let sleeps = lines.filter { $0.contains("sleep timer: pausing in") }.count
        print("\(calls) × 4 timer calls in \(elapsed): \(started) start, \(stopped) stop, \(sleeps) sleep-timer lines; "
            + "\(lines.count) log lines, \(world.log.utf8.count) bytes in all")
        for count in [started, stopped, sleeps] {
            #expect(count >= 1 && count <= 10 * windows, "\(count) lines over \(windows) windows")
        }
        // Still answering.
        #expect(try await world.player("Volume") != .string(""))
        world.kill()
    }
}
