import DBus
import Foundation

/// A private `dbus-daemon` and one connection to it, alive while the benchmarks run, as in the
/// daemon.
///
/// libdbus checks a container's signature with a list, and frees the lists' memory pool
/// whenever the last list in the process empties. A connection holds lists for its life; without
/// one, every variant or array opened allocates and frees a pool, which the daemon never pays
/// (valgrind on a C program writing one Metadata map: 65 allocations per message without a
/// connection, 3 with one).
final class LiveConnection: Sendable {
    private let daemon: Process
    private let folder: URL
    let connection: DBusConnection

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("linnet-micro-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--print-address=1", "--address=unix:dir=\(folder.path)"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var address = Data()
        while !address.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchmarkSetupError("dbus-daemon printed no address") }
            address.append(chunk)
        }
        let line = String(decoding: address, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        connection = try DBusConnection(address: line)
    }

    /// Closes the connection, stops the daemon and removes its socket's folder. SIGKILL, since
    /// Foundation's `Process` starts children with signals blocked and SIGTERM would wait for good.
    func stop() {
        connection.close()
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A benchmark that cannot be set up.
struct BenchmarkSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
