import DBus
import Foundation
import LibraryFormats
import LinnetCore
import MPRIS
import Testing
import TestSupport

/// One linnet per session (issue 17): a second launch, a card click (`Activate`) and "Open With"
/// (`Open`) reach the running linnet instead of starting another; `--new-instance` and `--name`
/// run apart, each with a session file of its own.
@Suite(.serialized) struct SingleInstanceTests {
    private static let applicationName = DesktopApplication.busName.rawValue
    private static let applicationPath = DesktopApplication.objectPath.rawValue

    /// Every name on the bus.
    private func names(_ world: LinnetWorld) async throws -> [String] {
        try await world.client.listNames().map(\.rawValue)
    }

    private func trackCount(_ world: LinnetWorld) async throws -> Int {
        try await world.proxy(MPRISNames.trackList).property("Tracks").decode(as: [ObjectPath].self).count
    }

    @Test(.timeLimit(.minutes(2)))
    func secondLaunchesActivateAndOpenReachTheRunningLinnet() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("a.ogg", title: "Song A", seconds: 30)
        try await world.makeTrack("b.ogg", title: "Song B", seconds: 30)
        try await world.makeTrack("c.ogg", title: "Song C", seconds: 30)
        try await world.start(["--no-resume", a])
        try await world.waitUntil("Song A") { try await world.title() == "Song A" }
        let owner = try await world.client.nameOwner(LinnetWorld.playerName)
        #expect(try await world.client.nameOwner(DesktopApplication.busName) == owner)

        // `linnet FILES`: played now in the running linnet; the second process exits 0 at once.
        // Relative paths are the launching shell's, not the running linnet's.
        let media = world.media.path
        let binary = LinnetWorld.binary.path
        let environment = world.environment
        let handed = try await offPool {
            try ExternalTool.run("/bin/sh", ["-c", "cd '\(media)' && exec '\(binary)' b.ogg c.ogg"], environment: environment)
        }
        #expect(handed.status == 0, "\(handed.stderr)")
        #expect(handed.output == "linnet already runs: handed it 2 items to play now")
        try await world.waitUntil("Song B") { try await world.title() == "Song B" }
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        #expect(try await trackCount(world) == 2)

        // `--enqueue` appends and leaves what plays alone.
        let enqueued = try await world.cli("--enqueue", a)
        #expect(enqueued.status == 0, "\(enqueued.stderr)")
        #expect(enqueued.output == "linnet already runs: handed it 1 item to append")
        #expect(try await trackCount(world) == 3)
        #expect(try await world.title() == "Song B")

        // No arguments: it says what plays.
        let bare = try await world.cli()
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.output == "linnet already runs: Playing — Song B — Tester", "\(bare.output)")

        // Nothing playable: the running linnet refuses, the launch says why and exits 66.
        let missing = try await world.cli(world.media.appendingPathComponent("gone.ogg").path)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nothing playable") && missing.stderr.contains("no such file or folder"), "\(missing.stderr)")
        #expect(try await world.title() == "Song B")

        // The desktop's own client of org.freedesktop.Application (GLib's gapplication): a card
        // click, a desktop action, "Open With".
        let tool = world.environment
        #expect(try await offPool { try ExternalTool.run("gapplication", ["launch", Self.applicationName], environment: tool) }.status == 0)
        let next = try await offPool { try ExternalTool.run("gapplication", ["action", Self.applicationName, "next"], environment: tool) }
        #expect(next.status == 0, "\(next.stderr)")
        try await world.waitUntil("Next to Song C") { try await world.title() == "Song C" }
        let opened = try await offPool { try ExternalTool.run("gapplication", ["launch", Self.applicationName, a], environment: tool) }
        #expect(opened.status == 0, "\(opened.stderr)")
        try await world.waitUntil("Song A, opened") { try await world.title() == "Song A" }
        #expect(try await trackCount(world) == 1)

        // Still one linnet: the same process owns both names, and no other player appeared.
        #expect(world.process?.isRunning == true)
        #expect(try await world.client.nameOwner(LinnetWorld.playerName) == owner)
        #expect(try await world.client.nameOwner(DesktopApplication.busName) == owner)
        #expect(try await names(world).filter { $0.hasPrefix("org.mpris.MediaPlayer2.") } == [LinnetWorld.playerName.rawValue])
        #expect(world.log.contains("activated by the desktop"))
        world.kill()
    }

    /// Two launches at the same moment with no linnet running: one serves, the other hands its
    /// files over and exits 0.
    @Test(.timeLimit(.minutes(1)))
    func twoLaunchesAtOnceMakeOneLinnet() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("a.ogg", title: "Race A", seconds: 30)
        let b = try await world.makeTrack("b.ogg", title: "Race B", seconds: 30)
        let first = try launch(world, ["--no-resume", a])
        let second = try launch(world, ["--no-resume", b])
        defer { [first, second].forEach(Self.stop) }
        try await world.waitUntil("linnet on the bus") { try await world.client.nameHasOwner(LinnetWorld.playerName) }
        let owner = try await world.client.nameOwner(LinnetWorld.playerName)
        #expect(try await world.client.nameOwner(DesktopApplication.busName) == owner)
        let serving = try await pid(of: owner, in: world)
        let gone = serving == first.processIdentifier ? second : first
        #expect([first.processIdentifier, second.processIdentifier].contains(serving))
        #expect(try await offPool { ChildExit.wait(for: gone) } == 0)
        ChildProcessRegistry.forget(pid: gone.processIdentifier)
        #expect(try await names(world).filter { $0.hasPrefix("org.mpris.MediaPlayer2.") } == [LinnetWorld.playerName.rawValue])
        // Whichever came second was handed to the first: the one left plays what came last.
        try await world.waitUntil("a race song playing") {
            let title = try await world.title()
            return title == "Race A" || title == "Race B"
        }
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
    }

    /// `--new-instance` and `--name` players run beside the session's linnet, each with its own
    /// session file; a `--new-instance` player's scratch state goes when it does.
    @Test(.timeLimit(.minutes(2)))
    func newInstanceAndNamedPlayersKeepTheirOwnSessionFiles() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("a.ogg", title: "Main", seconds: 30)
        let b = try await world.makeTrack("b.ogg", title: "Apart", seconds: 30)
        try await world.start(["--no-resume", a])
        let apart = try launch(world, ["--new-instance", "--no-resume", b])
        let named = try launch(world, ["--name", "kitchen", "--no-resume", b])
        defer { [apart, named].forEach(Self.stop) }
        let apartName = BusName(rawValue: "org.mpris.MediaPlayer2.linnet.instance\(apart.processIdentifier)")!
        let kitchen: BusName = "org.mpris.MediaPlayer2.kitchen"
        try await world.waitUntil("both players on the bus") {
            let apartThere = try await world.client.nameHasOwner(apartName)
            let kitchenThere = try await world.client.nameHasOwner(kitchen)
            return apartThere && kitchenThere
        }
        let state = world.home.appendingPathComponent("state/linnet")
        let apartSession = state.appendingPathComponent("instances/\(apart.processIdentifier)/session.json")
        let namedSession = state.appendingPathComponent("named/kitchen/session.json")
        for (name, file) in [(LinnetWorld.playerName, world.sessionFile), (apartName, apartSession), (kitchen, namedSession)] {
            // A volume change is saved within a second: each player saves into its own file.
            try await DBusProxy(connection: world.client, destination: name, path: MPRISNames.objectPath, interface: MPRISNames.player)
                .setProperty("Volume", to: .double(name == kitchen ? 0.25 : name == apartName ? 0.5 : 0.75))
            try await world.waitUntil("\(file.path) saved") { FileManager.default.fileExists(atPath: file.path) }
        }
        try await world.waitUntil("three volumes saved apart") {
            [world.sessionFile, apartSession, namedSession].map { file -> Double? in
                let saved = (try? JSONSerialization.jsonObject(with: Data(contentsOf: file))) as? [String: Any]
                return (saved?["state"] as? [String: Any])?["volume"] as? Double
            } == [0.75, 0.5, 0.25]
        }
        // The scratch player leaves nothing behind when it quits.
        try await DBusProxy(connection: world.client, destination: apartName, path: MPRISNames.objectPath, interface: MPRISNames.root)
            .call("Quit")
        #expect(try await offPool { ChildExit.wait(for: apart) } == 0)
        #expect(!FileManager.default.fileExists(atPath: apartSession.deletingLastPathComponent().path))
        #expect(FileManager.default.fileExists(atPath: namedSession.path))
        let owner = try await world.client.nameOwner(LinnetWorld.playerName)
        #expect(try await world.client.nameOwner(DesktopApplication.busName) == owner)
        world.kill()
    }

    /// Hostile or mistaken calls get clear D-Bus errors, and the player carries on.
    @Test(.timeLimit(.minutes(1)))
    func badApplicationCallsAreRefusedClearly() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("a.ogg", title: "Steady", seconds: 30)
        try await world.start(["--no-resume", "--paused", a])
        let application = DBusProxy(
            connection: world.client, destination: DesktopApplication.busName, path: DesktopApplication.objectPath,
            interface: DesktopApplication.interfaceName)
        func refusal(_ member: MemberName, _ arguments: [DBusValue]) async -> DBusError? {
            do {
                _ = try await application.call(member, arguments)
                return nil
            } catch {
                return error
            }
        }
        let none = DBusValue.stringVariantDictionary([])
        let tooMany = DBusValue.array(.string, Array(repeating: .string("file:///x.ogg"), count: 4097))
        #expect(await refusal("Open", [tooMany, none])?.name == .limitsExceeded)
        #expect(await refusal("Open", [.array(.string, [.string("a.ogg")]), none])?.name == .invalidArgs)
        #expect(await refusal("Open", [.array(.string, [.string("file:///nonexistent/x.ogg")]), none])?.name == .invalidArgs)
        #expect(await refusal("Open", [.array(.string, [.string("smb://host/x.ogg")]), none])?.name == .invalidArgs)
        let wrongType = DBusValue.stringVariantDictionary([(DesktopApplication.enqueueKey, .string("yes"))])
        #expect(await refusal("Open", [.array(.string, [.string(FileURI.uri(forPath: a))]), wrongType])?.name == .invalidArgs)
        #expect(await refusal("ActivateAction", [.string("explode"), .array(.variant, []), none])?.name == .invalidArgs)
        #expect(await refusal("ActivateAction", [.string("next"), .array(.variant, [.variant(.int32(1))]), none])?.name == .invalidArgs)
        try await world.waitForScannedQueue()
        #expect(try await world.title() == "Steady")
        #expect(try await world.player("PlaybackStatus") == .string("Paused"))

        // dbus/org.freedesktop.Application.xml, caps included, is what linnet serves.
        let environment = world.environment
        let introspection = try await offPool {
            try ExternalTool.run("gdbus", ["introspect", "--xml", "--session", "--dest", Self.applicationName,
                                           "--object-path", Self.applicationPath], environment: environment)
        }
        #expect(introspection.status == 0, "\(introspection.stderr)")
        let interface = DesktopApplication.interfaceName.rawValue
        let served = try #require(IntrospectionModel(xml: introspection.stdout).interfaces[interface])
        let xml = try String(contentsOf: Self.repository.appendingPathComponent("dbus/\(interface).xml"), encoding: .utf8)
        let declared = try #require(IntrospectionModel(xml: xml).interfaces[interface])
        #expect(served.members == declared.members)
        #expect(served.members.contains { $0.contains("in as uris [") && $0.contains("io.linnet.DBus.Limit.MaxElements=4096") }, "\(served.members)")
        world.kill()
    }

    /// The desktop file passes desktop-file-validate, is named after the bus name and lists the
    /// actions linnet knows; MPRIS DesktopEntry names it.
    @Test func theDesktopFileIsValidAndMatchesTheBusName() async throws {
        let file = Self.repository.appendingPathComponent("dbus/\(Self.applicationName).desktop")
        let validated = try await offPool { try ExternalTool.run("desktop-file-validate", [file.path]) }
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("\nDBusActivatable=true\n"))
        let listed = text.split(separator: "\n").first { $0.hasPrefix("Actions=") }?
            .dropFirst("Actions=".count).split(separator: ";").map(String.init)
        #expect(listed?.sorted() == DesktopApplication.actionNames)
        for action in DesktopApplication.actionNames {
            #expect(text.contains("[Desktop Action \(action)]\nName=") && text.contains("Exec=linnet action \(action)\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent("dbus/linnet.desktop").path))
    }

    // MARK: Helpers

    /// Starts another `linnet` process in `world` (logging beside the world's own log).
    private func launch(_ world: LinnetWorld, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = LinnetWorld.binary
        process.arguments = ["--audio-sink", "fakesink sync=true", "--log-level", "debug"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        for (key, value) in world.environment { environment[key] = value }
        process.environment = environment
        let log = world.home.appendingPathComponent("linnet-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcessRegistry.record(pid: process.processIdentifier, description: "linnet")
        return process
    }

    /// The pid of the process behind a unique bus name, as the bus daemon knows it.
    private func pid(of owner: BusName, in world: LinnetWorld) async throws -> Int32 {
        let bus = DBusProxy(connection: world.client, destination: .bus, path: "/org/freedesktop/DBus", interface: .bus)
        guard case .uint32(let pid)? = try await bus.call("GetConnectionUnixProcessID", [.string(owner.rawValue)]).first else {
            throw TestSupportError("no pid for \(owner)")
        }
        return Int32(pid)
    }

    private static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        ChildExit.wait(for: process)
        ChildProcessRegistry.forget(pid: process.processIdentifier)
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
