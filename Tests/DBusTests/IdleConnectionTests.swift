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
        let before = loop.sync { ThreadStatistics.contextSwitchesOfCurrentThread() }
        try await Task.sleep(for: .milliseconds(800))
        let after = loop.sync { ThreadStatistics.contextSwitchesOfCurrentThread() }
        print("idle D-Bus loop thread: \(after - before) context switches in 0.8 s")
        #expect(after - before <= 3)
        subscription.cancel()
    }
}
