import Foundation

/// A long-running tool (`playerctl --follow`, `dbus-monitor`) whose output lines a test reads
/// as they come. Killed with SIGKILL when stopped or released.
public final class StreamingTool: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var buffer = Data()
    private var lines: [String] = []
    private var stopped = false

    /// Starts `name` with `arguments`, adding `environment`.
    public init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.append(handle.availableData)
        }
        try process.run()
        ChildProcessRegistry.record(pid: process.processIdentifier, description: name)
    }

    private func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(data)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...newline)
        }
    }

    /// Every complete line printed so far.
    public var output: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// Waits until a printed line satisfies `predicate`, up to `limit`; returns whether one did.
    public func waitForLine(
        within limit: Duration = .seconds(10), where predicate: @escaping @Sendable (String) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if output.contains(where: predicate) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return output.contains(where: predicate)
    }

    /// Kills the tool (idempotent).
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        guard !wasStopped else { return }
        kill(process.processIdentifier, SIGKILL)
        ChildExit.wait(for: process)
        ChildProcessRegistry.forget(pid: process.processIdentifier)
    }

    deinit { stop() }
}
