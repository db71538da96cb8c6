import Foundation

/// A `dbus-daemon` owned by one test: started from a config file under `Tests/Fixtures`, killed
/// with SIGKILL when the test ends (Swift Testing blocks SIGTERM in children). A killed daemon
/// cannot remove its listening socket, so `stop()` does: without that every test left a
/// `/tmp/dbus-*` file behind (16,000 of them after a day of runs).
public final class PrivateBus: @unchecked Sendable {
    /// The bus address, for `DBUS_SESSION_BUS_ADDRESS` or `gdbus --address`.
    public let address: String
    /// The daemon's pid.
    public let pid: Int32
    private let process: Process
    private let output: Pipe
    private let lock = NSLock()
    private var stopped = false

    /// Starts a daemon with `configuration` (a fixture name or an absolute path), through
    /// `launcher` (a program and arguments that exec the daemon, e.g. as another user) if given.
    /// `environment` is added to the daemon's, which is what services it activates inherit.
    public init(configuration: String = "session.conf", launcher: [String] = [], environment: [String: String] = [:]) throws {
        let configPath = configuration.hasPrefix("/") ? configuration : Fixtures.path(configuration)
        process = Process()
        let daemon = ["/usr/bin/dbus-daemon", "--config-file=\(configPath)", "--nofork", "--print-address=1"]
        let command = launcher + daemon
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        pid = process.processIdentifier
        ChildProcessRegistry.record(pid: pid, description: "dbus-daemon")
        var collected = Data()
        while !collected.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            collected.append(chunk)
        }
        let line = String(decoding: collected, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else {
            Foundation.kill(pid, SIGKILL)
            throw TestSupportError("dbus-daemon printed no address")
        }
        address = line
    }

    /// The environment a client process needs to use this bus as its session bus.
    public var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address]
    }

    /// Kills the daemon (idempotent).
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        Foundation.kill(pid, SIGKILL)
        ChildExit.wait(for: process)
        ChildProcessRegistry.forget(pid: pid)
        for path in Self.socketPaths(in: address) { unlink(path) }
    }

    /// The filesystem sockets named by a D-Bus address (`unix:path=/tmp/dbus-X,guid=…`, possibly
    /// several separated by `;`); abstract sockets and other transports name none.
    public static func socketPaths(in address: String) -> [String] {
        address.split(separator: ";").compactMap { entry in
            guard entry.hasPrefix("unix:") else { return nil }
            let keys = entry.dropFirst("unix:".count).split(separator: ",")
            guard let path = keys.first(where: { $0.hasPrefix("path=") }) else { return nil }
            return String(path.dropFirst("path=".count)).removingPercentEncoding
        }
    }

    deinit { stop() }
}

/// A failure in the test harness itself.
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
