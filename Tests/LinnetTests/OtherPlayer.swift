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
    init(_ suffix: String, in world: LinnetWorld, playing track: String, paused: Bool = false) async throws {
        name = BusName(rawValue: "org.mpris.MediaPlayer2.\(suffix)")!
        self.world = world
        process.executableURL = LinnetWorld.binary
        process.arguments = ["--name", suffix, "--audio-sink", "fakesink sync=true", "--no-resume", "--log-level", "warning"]
            + (paused ? ["--paused"] : []) + [track]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        for (key, value) in world.environment { environment[key] = value }
        environment["XDG_STATE_HOME"] = world.home.appendingPathComponent("state-\(suffix)").path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcessRegistry.record(pid: process.processIdentifier, description: "linnet --name \(suffix)")
        let (client, name) = (world.client, name)
        try await waitUntil(.seconds(20), "\(suffix) on the bus") { try await client.nameHasOwner(name) }
        if !paused { try await waitForStatus("Playing") }
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

    /// SIGKILL (Swift Testing children do not receive SIGTERM); its name vanishes.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        ChildProcessRegistry.forget(pid: process.processIdentifier)
    }
}
