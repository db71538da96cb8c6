import Foundation

/// A wait that took longer than allowed.
public struct TimeoutError: Error, CustomStringConvertible {
    public let description: String
}

/// Runs `operation`, failing with ``TimeoutError`` if it takes longer than `limit`, so a hang
/// fails the test instead of blocking the suite.
public func withTimeout<T: Sendable>(
    _ limit: Duration = .seconds(20), _ what: String = "operation",
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit.scaledForSanitizers)
            throw TimeoutError(description: "\(what) did not finish within \(limit)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Waits, yielding, until `condition` holds, for state another process or thread changes on
/// its own; throws ``TimeoutError`` after `limit`.
public func waitUntil(
    _ limit: Duration = .seconds(10), _ what: String = "condition",
    _ condition: @escaping @Sendable () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit.scaledForSanitizers
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            throw TimeoutError(description: "\(what) not met within \(limit)")
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Collects values from several threads for a test to inspect.
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    public init() {}

    /// Appends `value`.
    public func record(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    /// Everything recorded so far.
    public var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
