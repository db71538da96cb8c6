import EventLoop
import Foundation
import Glibc
import Testing
import TestSupport

/// What the D-Bus binding relies on to dispatch inside a watch's own callback: a handler may
/// cancel sources (its own or another that is ready in the same loop iteration), and a cancelled
/// source's handler is never called again, even when its descriptor was already found ready.
@Suite struct SourceCancellationTests {
    @Test func aSourceCancelledByAnotherHandlerInTheSameIterationIsNotCalled() async throws {
        let loop = EventLoop(name: "test.cancel")
        defer { loop.stop() }
        var first: [Int32] = [0, 0]
        var second: [Int32] = [0, 0]
        #expect(pipe(&first) == 0)
        #expect(pipe(&second) == 0)
        defer { [first[0], first[1], second[0], second[1]].forEach { close($0) } }
        let calls = Recorder<Int>()
        let sources = Locked<[EventSource]>([])
        // Each handler cancels the other watch, then detaches its own (its descriptor stays
        // readable); whichever GLib calls first must be the only one ever called.
        let handler: @Sendable (Int) -> (FileEvents) -> SourceDisposition = { index in
            { _ in
                calls.record(index)
                sources.withLock { $0[1 - index].cancel() }
                return .remove
            }
        }
        try loop.sync {
            sources.withLock {
                $0 = [loop.watch(fileDescriptor: first[0], events: .readable, handler: handler(0)),
                      loop.watch(fileDescriptor: second[0], events: .readable, handler: handler(1))]
            }
            // Both become readable before the loop polls again: the next iteration finds both
            // ready and queues both for dispatch.
            var byte: UInt8 = 1
            guard write(first[1], &byte, 1) == 1, write(second[1], &byte, 1) == 1 else {
                throw TestSupportError("cannot write to the pipes")
            }
        }
        try await waitUntil(.seconds(10), "a handler ran") { !calls.values.isEmpty }
        // Round trips through the loop: each is at least one more iteration in which the other
        // descriptor is still readable (nothing read it).
        for _ in 0..<5 { loop.sync {} }
        #expect(calls.values.count == 1, "handlers called: \(calls.values)")
        #expect(sources.withLock { $0.allSatisfy(\.isCancelled) })
    }

    @Test func aHandlerCancellingItsOwnSourceIsNotCalledAgain() async throws {
        let loop = EventLoop(name: "test.self-cancel")
        defer { loop.stop() }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let calls = Recorder<Int>()
        let own = Locked<EventSource?>(nil)
        try loop.sync {
            own.withLock {
                $0 = loop.watch(fileDescriptor: fds[0], events: .readable) { _ in
                    calls.record(1)
                    // The descriptor stays readable: only the cancellation stops the calls.
                    own.withLock { $0?.cancel() }
                    return .keep
                }
            }
            var byte: UInt8 = 1
            guard write(fds[1], &byte, 1) == 1 else { throw TestSupportError("cannot write to the pipe") }
        }
        try await waitUntil(.seconds(10), "the handler ran") { !calls.values.isEmpty }
        for _ in 0..<5 { loop.sync {} }
        #expect(calls.values.count == 1)
    }
}

/// A value shared between the test and loop-thread handlers.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
