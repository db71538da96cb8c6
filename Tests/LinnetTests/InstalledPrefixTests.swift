import DBus
import Foundation
import LibraryFormats
import LinnetCore
import MPRIS
import Testing
import TestSupport

/// What starts linnet, from what `make install` puts in a prefix (issue 17): D-Bus activation
/// by name (a direct method call; playerctl never starts a player), the desktop entry (through
/// GLib's gapplication and through its `Exec=` line), and the systemd user unit (checked by
/// systemd-analyze; no user systemd runs here). The private bus lists only the prefix's
/// services folder and plays into a private PulseAudio, as the installed files say nothing of
/// test sinks.
@Suite(.serialized) struct InstalledPrefixTests {
    @Test(.timeLimit(.minutes(3)))
    func everyDocumentedWayOfStartingLinnetWorksFromAnInstalledPrefix() async throws {
        let scratch = try ScratchDirectory()
        let root = URL(fileURLWithPath: scratch.path)
        let prefix = root.appendingPathComponent("prefix")
        let repository = SingleInstanceTests.repository.path
        let installed = try await offPool {
            try ExternalTool.run("make", ["-C", repository, "--no-print-directory", "install", "PREFIX=\(prefix.path)"],
                                 environment: ["LINNET_BINARY": LinnetWorld.binary.path], timeout: .seconds(120))
        }
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let share = prefix.appendingPathComponent("share")
        let binary = prefix.appendingPathComponent("bin/linnet").path
        for file in ["dbus-1/services/io.linnet.Linnet.service", "dbus-1/services/org.mpris.MediaPlayer2.linnet.service",
                     "systemd/user/linnet.service", "applications/io.linnet.Linnet.desktop"] {
            #expect(FileManager.default.fileExists(atPath: share.appendingPathComponent(file).path), "\(file) not installed")
        }

        let pulseDirectory = root.appendingPathComponent("pulse")
        try FileManager.default.createDirectory(at: pulseDirectory, withIntermediateDirectories: true)
        let pulse = try SoundServer(in: pulseDirectory.path)
        defer { pulse.stop() }
        let world = try LinnetWorld(
            activating: share.appendingPathComponent("dbus-1/services"), busEnvironment: ["PULSE_SERVER": pulse.address])
        let song = try await world.makeTrack("installed.ogg", title: "Installed Song", seconds: 30)
        let other = try await world.makeTrack("other.ogg", title: "Other Song", seconds: 30)
        let environment = world.environment
        let activatable = try await world.client.listActivatableNames().map(\.rawValue)
        #expect(activatable.contains("io.linnet.Linnet") && activatable.contains("org.mpris.MediaPlayer2.linnet"), "\(activatable)")

        // playerctl only talks to running players: it starts nothing.
        let playerctl = try await offPool { try ExternalTool.run("playerctl", ["-p", "linnet", "play"], environment: environment) }
        #expect(playerctl.status != 0)
        #expect(playerctl.stderr.contains("No players found"), "\(playerctl.stderr)")
        #expect(try await !world.client.nameHasOwner(LinnetWorld.playerName))

        // A direct call to the MPRIS name starts the installed linnet (paused), then plays.
        let play = try await offPool {
            try ExternalTool.run("gdbus", [
                "call", "--session", "--dest", "org.mpris.MediaPlayer2.linnet", "--object-path", "/org/mpris/MediaPlayer2",
                "--method", "org.mpris.MediaPlayer2.Player.Play"], environment: environment, timeout: .seconds(60))
        }
        #expect(play.status == 0, "\(play.stderr)")
        try await expectInstalledLinnet(world, binary: binary)
        try await world.waitUntil("Playing after Play") { try await world.player("PlaybackStatus") == .string("Playing") }
        try await quit(world)

        // The desktop's way: GLib finds the D-Bus-activatable entry in the prefix (its TryExec
        // needs the prefix's bin folder on PATH, as ~/.local/bin is on a desktop), and
        // `gapplication launch` calls Open on io.linnet.Linnet, which starts linnet.
        let path = prefix.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let launcherEnvironment = environment.merging(["PATH": path]) { $1 }
        let apps = try await offPool {
            try ExternalTool.run("gapplication", ["list-apps"], environment: launcherEnvironment.merging(["XDG_DATA_DIRS": share.path]) { $1 })
        }
        #expect(apps.stdout.split(separator: "\n").contains("io.linnet.Linnet"), "\(apps.stdout)")
        let launched = try await offPool {
            try ExternalTool.run("gapplication", ["launch", "io.linnet.Linnet", song], environment: environment, timeout: .seconds(60))
        }
        #expect(launched.status == 0, "\(launched.stderr)")
        try await expectInstalledLinnet(world, binary: binary)
        try await world.waitUntil("the opened song playing") {
            let playing = try await world.player("PlaybackStatus") == .string("Playing")
            let title = try await world.title()
            return playing && title == "Installed Song"
        }

        // A launcher without D-Bus activation runs the entry's Exec= line: the installed
        // `linnet %U` hands the file to the running linnet and exits 0; actions likewise.
        let entry = try String(contentsOf: share.appendingPathComponent("applications/io.linnet.Linnet.desktop"), encoding: .utf8)
        let exec = try #require(entry.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst("Exec=".count)
        #expect(exec == "linnet %U")
        let command = exec.replacingOccurrences(of: "%U", with: "'\(FileURI.uri(forPath: other))'")
        let opened = try await offPool { try ExternalTool.run("/bin/sh", ["-c", command], environment: launcherEnvironment) }
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.output == "linnet already runs: handed it 1 item to play now")
        try await world.waitUntil("the other song") { try await world.title() == "Other Song" }
        let action = try await offPool {
            try ExternalTool.run("/bin/sh", ["-c", "linnet action play-pause"], environment: launcherEnvironment)
        }
        #expect(action.status == 0, "\(action.stderr)")
        try await world.waitUntil("Paused by the action") { try await world.player("PlaybackStatus") == .string("Paused") }

        // The user unit: systemd reads it cleanly, waits for the application's name, and runs
        // the installed binary, as the activation files' SystemdService= expects.
        let unit = share.appendingPathComponent("systemd/user/linnet.service")
        let unitText = try String(contentsOf: unit, encoding: .utf8)
        #expect(unitText.contains("\nBusName=io.linnet.Linnet\n"))
        #expect(unitText.contains("\nExecStart=\(binary) --paused"))
        for service in ["io.linnet.Linnet", "org.mpris.MediaPlayer2.linnet"] {
            let text = try String(contentsOf: share.appendingPathComponent("dbus-1/services/\(service).service"), encoding: .utf8)
            #expect(text.contains("\nName=\(service)\n") && text.contains("\nExec=\(binary) --paused") && text.contains("\nSystemdService=linnet.service"))
        }
        let runtime = root.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let verified = try await offPool {
            try ExternalTool.run("systemd-analyze", ["verify", "--user", unit.path], environment: ["XDG_RUNTIME_DIR": runtime.path])
        }
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        try await quit(world)
    }

    /// linnet owns both names from one process, which runs the installed binary.
    private func expectInstalledLinnet(_ world: LinnetWorld, binary: String) async throws {
        try await world.waitUntil("linnet on the bus") { try await world.client.nameHasOwner(LinnetWorld.playerName) }
        let owner = try await world.client.nameOwner(LinnetWorld.playerName)
        #expect(try await world.client.nameOwner(DesktopApplication.busName) == owner)
        let bus = DBusProxy(connection: world.client, destination: .bus, path: "/org/freedesktop/DBus", interface: .bus)
        guard case .uint32(let pid)? = try await bus.call("GetConnectionUnixProcessID", [.string(owner.rawValue)]).first else {
            Issue.record("no pid for \(owner)")
            return
        }
        ChildProcessRegistry.record(pid: Int32(pid), description: "linnet (activated)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") == binary)
    }

    private func quit(_ world: LinnetWorld) async throws {
        try await world.proxy(MPRISNames.root).call("Quit")
        try await world.waitUntil("linnet gone") {
            let mpris = try await world.client.nameHasOwner(LinnetWorld.playerName)
            let application = try await world.client.nameHasOwner(DesktopApplication.busName)
            return !mpris && !application
        }
    }
}
