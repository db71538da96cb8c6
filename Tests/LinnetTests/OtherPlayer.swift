import DBus
import Foundation
import MPRIS
import TestSupport

/// Another real MPRIS player on a world's bus: a second `linnet` process under its own name
/// (`--name`) and its own state folder, playing into a clock-synced null sink. Focus tests act
/// on these the way linnet acts on any player on a desktop.
final class OtherPlayer: @unchecked Sendable {
    let name: BusName
    private let world: LinnetWorld
    private let process = Process()

    /// Starts `linnet --name <suffix>` playing `track` (or loaded paused) and waits for its name.
    convenience init(_ suffix: String, in world: LinnetWorld, playing track: String, paused: Bool = false) async throws {
        var environment: [String: String] = [:]
        environment["XDG_STATE_HOME"] = world.home.appendingPathComponent("state-\(suffix)").path
        try await self.init(
            name: "org.mpris.MediaPlayer2.\(suffix)", in: world, executable: LinnetWorld.binary,
            arguments: ["--name", suffix, "--audio-sink", "fakesink sync=true", "--no-resume", "--log-level", "warning"]
                + (paused ? ["--paused"] : []) + [track],
            environment: environment)
        if !paused { try await waitForStatus("Playing") }
    }

    /// Where mpv's MPRIS plugin (Debian's mpv-mpris) lives.
    static let mpvPlugin = "/usr/lib/mpv-mpris/mpris.so"

    /// Whether mpv and its MPRIS plugin are installed (they are optional).
    static var mpvIsInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv") && FileManager.default.fileExists(atPath: mpvPlugin)
    }

    /// Starts mpv with the MPRIS plugin, playing `track` in a loop to a null output in real time.
    static func mpv(in world: LinnetWorld, playing track: String) async throws -> OtherPlayer {
        let player = try await OtherPlayer(
            name: "org.mpris.MediaPlayer2.mpv", in: world, executable: URL(fileURLWithPath: "/usr/bin/mpv"),
            arguments: [
                "--no-config", "--script=\(mpvPlugin)", "--no-video", "--ao=null", "--really-quiet", "--loop=inf", track,
            ],
            environment: [:])
        try await player.waitForStatus("Playing")
        return player
    }

    private init(
        name: String, in world: LinnetWorld, executable: URL, arguments: [String], environment extra: [String: String]
    ) async throws {
        self.name = BusName(rawValue: name)!
        self.world = world
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        for (key, value) in world.environment { environment[key] = value }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcessRegistry.record(pid: process.processIdentifier, description: executable.lastPathComponent)
        let (client, busName) = (world.client, self.name)
        try await waitUntil(.seconds(20), "\(name) on the bus") { try await client.nameHasOwner(busName) }
    }

    deinit { kill() }

    private var proxy: DBusProxy {
        DBusProxy(connection: world.client, destination: name, path: MPRISNames.objectPath, interface: MPRISNames.player)
    }

    /// Its PlaybackStatus.
    func status() async throws -> String {
        guard case .string(let status) = try await proxy.property("PlaybackStatus") else { return "?" }
        return status
    }

    /// Its Volume.
    func volume() async throws -> Double {
        guard case .double(let volume) = try await proxy.property("Volume") else { return .nan }
        return volume
    }

    /// Sets its Volume as a mixer applet would.
    func setVolume(_ volume: Double) async throws {
        try await proxy.setProperty("Volume", to: .double(volume))
    }

    /// Calls a Player method such as `Play` or `Pause`, as the user would from a panel.
    func call(_ member: MemberName) async throws {
        try await proxy.call(member)
    }

    func waitForStatus(_ expected: String, timeout: Duration = .seconds(15)) async throws {
        try await waitUntil(timeout, "\(name) to be \(expected)") { try await self.status() == expected }
    }

    /// Freezes the process: it keeps its name but answers nothing (a hung player).
    func freeze() { Foundation.kill(process.processIdentifier, SIGSTOP) }

    /// Lets a frozen process run again: it then handles the calls that queued up meanwhile.
    func thaw() { Foundation.kill(process.processIdentifier, SIGCONT) }

    /// SIGKILL (Swift Testing children do not receive SIGTERM); its name vanishes.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        ChildExit.wait(for: process)
        ChildProcessRegistry.forget(pid: process.processIdentifier)
    }
}
