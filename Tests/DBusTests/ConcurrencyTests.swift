import DBus
import Foundation
import Testing
import TestSupport

/// Many threads sharing one connection: every reply reaches the caller that asked for it.
@Suite struct ConcurrencyTests {
    @Test func eightThreadsTimesAThousandCallsGetTheirOwnReplies() async throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        let client = try DBusConnection(address: bus.address)
        let proxy = DBusProxy(connection: client, destination: SampleObject.name, path: SampleObject.path,
                              interface: SampleObject.interface)
        let mismatches = Recorder<String>()
        let completed = Recorder<Int>()
        let started = ContinuousClock.now
        let threads = (0..<8).map { thread in
            Thread {
                for call in 0..<1000 {
                    let a = Int32(thread * 100_000 + call)
                    do {
                        let reply = try proxy.callBlocking("Add", [.int32(a), .int32(Int32(thread))])
                        if reply != [.int32(a + Int32(thread))] { mismatches.record("thread \(thread) call \(call): \(reply)") }
                    } catch {
                        mismatches.record("thread \(thread) call \(call): \(error)")
                    }
                }
                completed.record(thread)
            }
        }
        threads.forEach { $0.start() }
        try await waitUntil(.seconds(120)) { completed.values.count == 8 }
        let elapsed = ContinuousClock.now - started
        #expect(mismatches.values.isEmpty, "\(mismatches.values.prefix(5))")
        print("8 threads × 1000 blocking calls: \(elapsed), \(Int(8000 / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))) calls/s")
        withExtendedLifetime(object) {}
    }

    @Test func eightTasksTimesAThousandAsyncCallsGetTheirOwnReplies() async throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        let client = try DBusConnection(address: bus.address)
        let proxy = DBusProxy(connection: client, destination: SampleObject.name, path: SampleObject.path,
                              interface: SampleObject.interface)
        try await withTimeout(.seconds(120), "async calls") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for call in 0..<1000 {
                            let a = Int32(task * 100_000 + call)
                            let reply = try await proxy.call("Add", [.int32(a), .int32(Int32(task))])
                            #expect(reply == [.int32(a + Int32(task))])
                        }
                        // Deferred replies answered from other threads interleave too.
                        for call in 0..<20 {
                            let text = "t\(task)c\(call)"
                            let reply = try await proxy.call("Later", [.string(text)])
                            #expect(reply == [.string(text.uppercased())])
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        withExtendedLifetime(object) {}
    }
}
