@testable import DesktopClients
import DBus
import EventLoop
import Foundation
import LinnetCore
import Logging
import Testing
import TestSupport

/// The notification client against a recording org.freedesktop.Notifications on a private bus.
@Suite struct DesktopNotifierTests {
    private static let logger = Logger(label: "test.notifier")

    @Test func eachSlotReplacesItsBubbleAndActionsComeBack() async throws {
        try await withTimeout(.seconds(60), "notifier test") {
            let bus = try await offPool { try PrivateBus() }
            defer { bus.stop() }
            let server = try await offPool { try RecordingNotificationServer(address: bus.address) }
            let connection = try await offPool { try DBusConnection(address: bus.address) }
            let notifier = try await offPool { DesktopNotifier(connection: connection, logger: Self.logger) }
            let picked = Recorder<String>()
            let actions = [NotificationAction(key: "previous", label: "Previous"), NotificationAction(key: "next", label: "Next")]

            notifier.show(
                DesktopNotification(summary: "Alpha", body: "Ann — First", icon: "file:///tmp/art.png", actions: actions),
                in: "track") { picked.record($0) }
            notifier.show(DesktopNotification(summary: "Beta", body: "Bob — First", actions: actions), in: "track") {
                picked.record($0)
            }
            notifier.show(
                DesktopNotification(summary: "Wake up", urgency: .critical, category: "x-linnet.alarm"), in: "alarm",
                onAction: nil)
            await notifier.settle()

            let calls = server.notifications
            try #require(calls.count == 3)
            #expect(calls.map(\.summary) == ["Alpha", "Beta", "Wake up"])
            #expect(calls.allSatisfy { $0.appName == "Linnet" && $0.hints["desktop-entry"] == .string("io.linnet.Linnet") })
            #expect(calls[0].replacesID == 0)
            #expect(calls[1].replacesID == calls[0].id && calls[1].id == calls[0].id)
            // Another slot is another bubble.
            #expect(calls[2].replacesID == 0 && calls[2].id != calls[0].id)
            #expect(calls[0].hints["image-path"] == .string("file:///tmp/art.png"))
            #expect(calls[0].actions == ["previous", "Previous", "next", "Next"])
            #expect(calls[0].hints["urgency"] == .byte(1))
            #expect(calls[2].hints["urgency"] == .byte(2))
            #expect(calls[2].hints["category"] == .string("x-linnet.alarm"))
            #expect(calls[2].expireTimeout == -1)
            #expect(server.capabilityQueryCount == 1)

            try server.invokeAction(id: calls[1].id, key: "next")
            try await waitUntil(.seconds(20), "the action to arrive") { picked.values == ["next"] }

            // The bubble was dismissed with the click: the slot's next one is new. A round trip
            // on the notifier's connection orders the server's NotificationClosed before it.
            _ = try await connection.call(
                destination: RecordingNotificationServer.name, path: RecordingNotificationServer.path,
                interface: RecordingNotificationServer.interface, member: "GetServerInformation")
            notifier.show(DesktopNotification(summary: "Gamma"), in: "track", onAction: nil)
            await notifier.settle()
            #expect(server.notifications.last?.summary == "Gamma")
            #expect(server.notifications.last?.replacesID == 0)

            notifier.withdraw("alarm")
            await notifier.settle()
            #expect(server.closedByClient == [calls[2].id])
        }
    }

    @Test func noButtonsWhenTheServerCannotShowThem() async throws {
        try await withTimeout(.seconds(60), "notifier capabilities test") {
            let bus = try await offPool { try PrivateBus() }
            defer { bus.stop() }
            let server = try await offPool { try RecordingNotificationServer(address: bus.address, capabilities: ["body"]) }
            let notifier = try await offPool {
                DesktopNotifier(connection: try DBusConnection(address: bus.address), logger: Self.logger)
            }
            notifier.show(
                DesktopNotification(summary: "Alpha", actions: [NotificationAction(key: "next", label: "Next")]),
                in: "track", onAction: nil)
            await notifier.settle()
            #expect(server.notifications.count == 1)
            #expect(server.notifications.first?.actions == [])
        }
    }

    @Test func withoutAServerRequestsAreDroppedQuickly() async throws {
        try await withTimeout(.seconds(60), "notifier without server") {
            let bus = try await offPool { try PrivateBus() }
            defer { bus.stop() }
            let notifier = try await offPool {
                DesktopNotifier(connection: try DBusConnection(address: bus.address), timeout: .seconds(1), logger: Self.logger)
            }
            notifier.show(DesktopNotification(summary: "Nobody"), in: "track", onAction: nil)
            notifier.withdraw("track")
            await notifier.settle()
            // A server that appears later is used.
            let server = try await offPool { try RecordingNotificationServer(address: bus.address) }
            notifier.show(DesktopNotification(summary: "Somebody"), in: "track", onAction: nil)
            await notifier.settle()
            #expect(server.notifications.map(\.summary) == ["Somebody"])
            #expect(server.notifications.first?.replacesID == 0)
        }
    }
}
