import Foundation

/// Runs blocking work (child processes, waits) on a thread of its own. Swift's cooperative pool
/// has one thread per core — two here — and a test blocking one of them for seconds starves
/// every other test's event readers, which then see events late.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
