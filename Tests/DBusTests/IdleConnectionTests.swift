import DBus
import EventLoop
import Foundation
import Testing
import TestSupport

/// No polling: a connection with an exported object and a subscription, left alone, leaves its
/// loop thread asleep.
@Suite struct IdleConnectionTests {
    @Test func idleConnectionMakesNoWakeUps() async throws {
        let bus = try PrivateBus()
        let loop = EventLoop(name: "test.idle-bus")
        defer { loop.stop() }
        let connection = try DBusConnection(address: bus.address, loop: loop)
        try connection.export([DBusInterface(name: "org.linnet.Idle", properties: [
            DBusProperty("Value", type: .int32, get: { .int32(1) }),
        ])], at: "/idle")
        let subscription = try connection.subscribe(MatchRule(interface: "org.linnet.Nothing")) { _ in }
        // One round-trip so the connection has settled.
        _ = try await connection.call(destination: .bus, path: "/org/freedesktop/DBus", interface: .peer, member: "Ping")
        // Read from this thread once the loop thread sleeps: reading on the loop thread would
        // wake it, and a busy machine would add preemptions to what is counted.
        let thread = try loop.sync { try ThreadStatistics.currentThreadID() }
        let before = try await ThreadStatistics.statusOnceAsleep(thread: thread)
        try await Task.sleep(for: .milliseconds(800))
        let after = try ThreadStatistics.status(ofThread: thread)
        print("idle D-Bus loop thread over 0.8 s: \(after.voluntarySwitches - before.voluntarySwitches) wake-ups, "
              + "\(after.involuntarySwitches - before.involuntarySwitches) preemptions")
        #expect(after.contextSwitches == before.contextSwitches, "the idle D-Bus loop thread woke up")
        subscription.cancel()
    }
}
