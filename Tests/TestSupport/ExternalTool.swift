import Foundation

/// What an external program printed and how it ended.
public struct ToolResult: Sendable {
    /// Exit status (or 128 + signal when killed).
    public let status: Int32
    /// Standard output, decoded as UTF-8.
    public let stdout: String
    /// Standard error, decoded as UTF-8.
    public let stderr: String
    /// Standard output without surrounding whitespace.
    public var output: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Runs real client tools (`gdbus`, `dbus-send`, `playerctl`, `gst-launch-1.0`) as a user would.
public enum ExternalTool {
    /// Runs `name` (looked up on PATH) with `arguments`, adding `environment` to this process's
    /// environment, and kills it with SIGKILL after `timeout`.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: Duration = .seconds(30)
    ) throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        ChildProcessRegistry.record(pid: pid, description: name)
        defer { ChildProcessRegistry.forget(pid: pid) }

        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        let seconds = Double(timeout.components.seconds)
            + Double(timeout.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let errorData = ResultBox()
        let errorReader = Thread { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        let status = ChildExit.wait(for: process)
        killer.cancel()
        let errors = errorData.wait()
        return ToolResult(
            status: status, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errors, as: UTF8.self))
    }
}

private final class ResultBox: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func set(_ value: Data) { data = value; done.signal() }
    func wait() -> Data { done.wait(); return data }
}
