import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// Starting, stopping, restarting and being started: the binary as a service.
@Suite(.serialized) struct DaemonLifecycleTests {
    /// Reads the position linnet reports, in microseconds.
    private func position(_ world: LinnetWorld) async throws -> Int64 {
        if case .int64(let position) = try await world.player("Position") { return position }
        return -1
    }

    @Test func resumesAfterSIGTERMWhereItWas() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("r1.ogg", title: "Resume One", seconds: 30)
        let b = try await world.makeTrack("r2.ogg", title: "Resume Two", seconds: 30)
        try await world.start(["--no-resume", a, b])
        try await world.proxy(MPRISNames.player).call("Next")
        try await world.proxy(MPRISNames.player).call("Seek", [.int64(7_000_000)])
        try await world.waitUntil("playing past 7 s") { try await position(world) > 7_000_000 }
        let before = try await position(world)
        let asked = ContinuousClock.now
        world.send(SIGTERM)
        #expect(try await world.waitForExit() == 0)
        // Playback went on until linnet handled the signal: the saved position is no earlier than
        // `before` and no later than playing on for as long as linnet took to exit, however busy
        // the machine was. (A stale periodic save, up to 4 s old, falls below `before`.)
        let elapsed = asked.duration(to: .now)
        let latest = before + elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        #expect(FileManager.default.fileExists(atPath: world.sessionFile.path))

        let saved = (try? String(contentsOf: world.sessionFile, encoding: .utf8)) ?? "none"
        try await world.start([])
        try await world.waitForScannedQueue()
        #expect(try await world.title() == "Resume Two", "saved: \(saved)")
        #expect(try await world.player("PlaybackStatus") == .string("Paused"))
        try await world.waitUntil("the resumed position (saved: \(saved))") { try await position(world) > 0 }
        let after = try await position(world)
        // The engine's answers have some granularity, and a sink running late on a loaded machine
        // catches up with the clock (its answer then jumps ahead): a second's slack above; none
        // worth the name below, where a stale save would land.
        #expect(after >= before - 100_000 && after <= latest + 1_000_000, "before \(before), latest \(latest), after \(after)")
        world.kill()
    }

    @Test func resumesAfterKill9LosingAtMostFiveSeconds() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("k1.ogg", title: "Killed", seconds: 30)
        try await world.start(["--no-resume", a])
        try await world.waitUntil("playing past 9 s", timeout: .seconds(30)) { try await position(world) > 9_000_000 }
        let before = try await position(world)
        world.kill()
        try await world.start([])
        try await world.waitForScannedQueue()
        #expect(try await world.title() == "Killed")
        try await world.waitUntil("the resumed position") { try await position(world) > 0 }
        let after = try await position(world)
        #expect(after >= before - 5_000_000 && after <= before + 500_000, "before \(before), after \(after)")
        world.kill()
    }

    @Test func rootPropertiesDescribeLinnetAndWhatItCanPlay() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("root.ogg", title: "Root", seconds: 5)
        try await world.start(["--no-resume", "--paused", a])
        let root = try await world.proxy(MPRISNames.root).allProperties()
        #expect(root["Identity"] == .string("Linnet"))
        #expect(root["DesktopEntry"] == .string("io.linnet.Linnet"))
        #expect(root["CanQuit"] == .boolean(true))
        #expect(root["CanRaise"] == .boolean(false))
        #expect(root["HasTrackList"] == .boolean(true))
        let schemes = try root["SupportedUriSchemes"]?.decode(as: [String].self) ?? []
        #expect(schemes.contains("file") && schemes.contains("http"))
        let types = try root["SupportedMimeTypes"]?.decode(as: [String].self) ?? []
        // Installed here by gstreamer1.0-plugins-base/good: Vorbis in Ogg, FLAC, WAV.
        #expect(types.contains("audio/ogg") && types.contains("audio/flac") && types.contains("audio/x-wav"))
        #expect(try await world.proxy(MPRISNames.trackList).property("CanEditTracks") == .boolean(true))
        world.kill()
    }

    @Test func quitReleasesTheNameAndExitsZero() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("q.ogg", title: "Quit", seconds: 5)
        try await world.start(["--no-resume", "--paused", a])
        try await world.proxy(MPRISNames.root).call("Quit")
        let status = try await world.waitForExit()
        #expect(status == 0, "exit status \(String(describing: status)); log:\n\(world.log.suffix(3000))")
        #expect(try await !world.client.nameHasOwner(LinnetWorld.playerName))
    }

    @Test func withoutASessionBusItSaysSoAndFails() async throws {
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "DISPLAY": ""]
        let binary = LinnetWorld.binary.path
        let result = try await offPool { try ExternalTool.run(binary, ["--no-resume"], environment: environment) }
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot reach the session bus"))
        #expect(result.stderr.contains("dbus-run-session"))
    }

    @Test func helpListsEveryOption() async throws {
        let binary = LinnetWorld.binary.path
        let result = try await offPool { try ExternalTool.run(binary, ["--help"]) }
        #expect(result.status == 0)
        #expect(result.stdout.contains("play (default)"))
        for option in [
            "--name", "--new-instance", "--enqueue", "--audio-sink", "--loop", "--shuffle", "--volume", "--no-resume", "--paused", "--log-level",
        ] {
            #expect(result.stdout.contains(option), "\(option) missing from --help")
        }
        let bad = try await offPool { try ExternalTool.run(binary, ["--loop", "sometimes"]) }
        #expect(bad.status == 64)
        // --name becomes a bus name and a state folder's name: only what a bus name allows.
        for name in ["../up", "a/b", "9lives", ""] {
            let refused = try await offPool { try ExternalTool.run(binary, ["--name", name]) }
            #expect(refused.status == 64, "--name \(name)")
        }
    }

    @Test func playsTheMusicFolderWhenNothingIsSaved() async throws {
        let world = try LinnetWorld()
        let music = world.home.appendingPathComponent("Music/Album")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let track = try await world.makeTrack("01 first.ogg", title: "From The Library", seconds: 5)
        try FileManager.default.moveItem(atPath: track, toPath: music.appendingPathComponent("01 first.ogg").path)
        try await world.start([])
        try await world.waitForScannedQueue()
        #expect(try await world.title() == "From The Library")
        world.kill()
    }

    @Test func playsTheDemoWhenThereIsNothingElse() async throws {
        let world = try LinnetWorld()
        try await world.start([])
        try await world.waitUntil("a demo track") { try await world.title() != nil }
        let tracks = try await world.proxy(MPRISNames.trackList).property("Tracks").decode(as: [ObjectPath].self)
        #expect(tracks.count >= 3)
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        world.kill()
    }

    @Test func activatePlaylistReplacesTheQueue() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("p1.ogg", title: "Queue Song", seconds: 5)
        let b = try await world.makeTrack("p2.ogg", title: "Listed Song", seconds: 5)
        let playlists = world.home.appendingPathComponent("data/linnet/playlists")
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        try "#EXTM3U\n#EXTINF:5,Someone - Listed Song\n\(b)\n".write(
            to: playlists.appendingPathComponent("Favourites.m3u"), atomically: true, encoding: .utf8)
        try await world.start(["--no-resume", "--paused", a])
        let proxy = world.proxy(MPRISNames.playlists)
        #expect(try await proxy.property("PlaylistCount") == .uint32(1))
        let reply = try await proxy.call("GetPlaylists", [.uint32(0), .uint32(10), .string("Alphabetical"), .boolean(false)])
        guard case .array(_, let items)? = reply.first, case .structure(let fields)? = items.first,
            case .objectPath(let id) = fields[0]
        else {
            Issue.record("no playlist listed: \(reply)")
            return
        }
        #expect(fields[1] == .string("Favourites"))
        try await proxy.call("ActivatePlaylist", [.objectPath(id)])
        try await world.waitUntil("the playlist's song") { try await world.title() == "Listed Song" }
        let active = try await proxy.property("ActivePlaylist")
        #expect(active == .structure([.boolean(true), .structure([.objectPath(id), .string("Favourites"), .string("")])]))
        world.kill()
    }

    /// The activation file from dbus/ makes a private bus start linnet when a client calls it.
    @Test func dbusActivationStartsLinnet() async throws {
        let world = try LinnetWorld()
        let song = try await world.makeTrack("activated.ogg", title: "Activated", seconds: 5)
        let bin = world.home.appendingPathComponent("bin")
        let services = world.home.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        // Stands in for the installed binary: the real one, in this test's home and folders.
        let exports = world.environment.filter { $0.key != "DBUS_SESSION_BUS_ADDRESS" }
            .map { "export \($0.key)='\($0.value)'" }.sorted().joined(separator: "\n")
        let wrapper = "#!/bin/sh\n\(exports)\nexec '\(LinnetWorld.binary.path)' --audio-sink 'fakesink sync=true' --no-resume '\(song)' \"$@\"\n"
        let wrapperURL = bin.appendingPathComponent("linnet")
        try wrapper.write(to: wrapperURL, atomically: true, encoding: .utf8)
        chmod(wrapperURL.path, 0o755)
        let template = try String(contentsOf: repositoryRoot.appendingPathComponent("dbus/org.mpris.MediaPlayer2.linnet.service.in"), encoding: .utf8)
        try template.replacingOccurrences(of: "@BINDIR@", with: bin.path)
            .write(to: services.appendingPathComponent("org.mpris.MediaPlayer2.linnet.service"), atomically: true, encoding: .utf8)
        let config = try String(contentsOfFile: Fixtures.path("session.conf"), encoding: .utf8)
            .replacingOccurrences(of: "</busconfig>", with: "  <servicedir>\(services.path)</servicedir>\n</busconfig>")
        let configURL = world.home.appendingPathComponent("activation.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)

        let bus = try PrivateBus(configuration: configURL.path)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let listed = try await offPool { try ExternalTool.run("dbus-send", [
            "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.ListActivatableNames"], environment: environment) }
        #expect(listed.stdout.contains("org.mpris.MediaPlayer2.linnet"))
        // Calling the name starts linnet; the call is answered by the started process.
        let identity = try await offPool { try ExternalTool.run("gdbus", [
            "call", "--session", "--dest", "org.mpris.MediaPlayer2.linnet", "--object-path", "/org/mpris/MediaPlayer2",
            "--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2", "Identity"],
            environment: environment, timeout: .seconds(40)) }
        #expect(identity.output == "(<'Linnet'>,)", "\(identity.stderr)")
        // The file name shows until the tags are read; then the title.
        var title = ""
        let deadline = ContinuousClock.now + .seconds(20)
        while title != "Activated", ContinuousClock.now < deadline {
            title = try await offPool {
                try ExternalTool.run("playerctl", ["-p", "linnet", "metadata", "title"], environment: environment)
            }.output
            if title != "Activated" { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(title == "Activated")
        _ = try await offPool { try ExternalTool.run("playerctl", ["-p", "linnet", "stop"], environment: environment) }
        let quit = try await offPool { try ExternalTool.run("gdbus", [
            "call", "--session", "--dest", "org.mpris.MediaPlayer2.linnet", "--object-path", "/org/mpris/MediaPlayer2",
            "--method", "org.mpris.MediaPlayer2.Quit"], environment: environment) }
        #expect(quit.status == 0)
        bus.stop()
    }

    private var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
