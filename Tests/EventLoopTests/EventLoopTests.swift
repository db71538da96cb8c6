import EventLoop
import Foundation
import Glibc
import Testing
import TestSupport

/// The loop thread: ordering, timers, descriptor watches, and sleeping when idle.
@Suite struct EventLoopTests {
    @Test func executeRunsInOrderOnTheLoopThread() async throws {
        let loop = EventLoop(name: "test.order")
        defer { loop.stop() }
        let order = Recorder<Int>()
        for index in 0..<100 {
            loop.execute {
                precondition(loop.isCurrentThread)
                order.record(index)
            }
        }
        loop.sync {}
        #expect(order.values == Array(0..<100))
        #expect(!loop.isCurrentThread)
    }

    /// Work queued before stop runs; a stop right after the loop was made (its thread perhaps
    /// not yet running) still ends it; a second stop returns at once.
    @Test(.timeLimit(.minutes(1))) func stopRunsQueuedWorkAndASecondStopReturns() async throws {
        let ran = Recorder<Int>()
        let loop = EventLoop(name: "test.stop")
        loop.execute { ran.record(1) }
        try await offPool { loop.stop() }
        #expect(loop.isStopped)
        #expect(ran.values == [1])
        try await offPool { loop.stop() }
        #expect(loop.isStopped)
    }

    @Test func syncReturnsValuesAndRethrowsAndNestsOnTheLoop() throws {
        let loop = EventLoop(name: "test.sync")
        defer { loop.stop() }
        #expect(loop.sync { 41 + 1 } == 42)
        struct Boom: Error {}
        #expect(throws: Boom.self) { try loop.sync { throw Boom() } }
        // sync from the loop thread runs inline instead of deadlocking.
        #expect(loop.sync { loop.sync { loop.isCurrentThread } })
    }

    @Test func timerFiresAndRepeatsUntilRemoved() async throws {
        let loop = EventLoop(name: "test.timer")
        defer { loop.stop() }
        let fired = Recorder<Int>()
        let done = AsyncStream.makeStream(of: Void.self)
        let source = loop.timer(after: .milliseconds(5)) {
            fired.record(1)
            if fired.values.count == 3 {
                done.continuation.yield()
                return .remove
            }
            return .keep
        }
        for await _ in done.stream { break }
        loop.sync {}
        #expect(fired.values.count == 3)
        #expect(source.isCancelled)
    }

    @Test func fileDescriptorWatchReportsReadability() async throws {
        let loop = EventLoop(name: "test.fd")
        defer { loop.stop() }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let received = Recorder<Int>()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let watch = loop.watch(fileDescriptor: fds[0], events: .readable) { events in
            var byte: UInt8 = 0
            if events.contains(.readable), read(fds[0], &byte, 1) == 1 { received.record(Int(byte)) }
            continuation.yield()
            return .keep
        }
        var value: UInt8 = 7
        #expect(write(fds[1], &value, 1) == 1)
        for await _ in stream { break }
        watch.cancel()
        #expect(received.values == [7])
    }

    /// No polling: an idle loop thread stays asleep. Its counters are read from this thread,
    /// once it has gone to sleep, so neither the reading nor the machine's load adds a switch:
    /// any wake-up in the idle interval is one the loop made itself.
    @Test func idleLoopDoesNotWakeUp() async throws {
        let loop = EventLoop(name: "test.idle")
        defer { loop.stop() }
        let thread = try loop.sync { try ThreadStatistics.currentThreadID() }
        let before = try await ThreadStatistics.statusOnceAsleep(thread: thread)
        try await Task.sleep(for: .milliseconds(800))
        let after = try ThreadStatistics.status(ofThread: thread)
        print("loop thread over 0.8 s idle: \(after.voluntarySwitches - before.voluntarySwitches) wake-ups, "
              + "\(after.involuntarySwitches - before.involuntarySwitches) preemptions; state \(after.state)")
        #expect(after.contextSwitches == before.contextSwitches, "the idle loop thread woke up")
    }
}
