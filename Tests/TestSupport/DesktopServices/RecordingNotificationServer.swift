public import DBus
import EventLoop
import Foundation

/// A notification server (`org.freedesktop.Notifications`) on a private bus that records every
/// call and lets a test play the user: invoke an action, close a bubble. Capabilities are
/// configurable, so a test can offer or withhold `actions`.
public final class RecordingNotificationServer: @unchecked Sendable {
    /// One `Notify` call as it arrived, with the id the server answered.
    public struct NotifyCall: Sendable {
        public let appName: String
        public let replacesID: UInt32
        public let appIcon: String
        public let summary: String
        public let body: String
        /// Alternating keys and labels, as on the wire.
        public let actions: [String]
        /// The hints, unwrapped from their variants.
        public let hints: [String: DBusValue]
        public let expireTimeout: Int32
        /// The id this server gave the bubble.
        public let id: UInt32
    }

    public static let name: BusName = "org.freedesktop.Notifications"
    public static let path: ObjectPath = "/org/freedesktop/Notifications"
    public static let interface: InterfaceName = "org.freedesktop.Notifications"

    private let loop = EventLoop(name: "test.notifications")
    private let connection: DBusConnection
    private let lock = NSLock()
    private var calls: [NotifyCall] = []
    private var closeRequests: [UInt32] = []
    /// Bubbles on screen; a closed one cannot be replaced (the next Notify makes a new one).
    private var open: Set<UInt32> = []
    private var capabilityQueries = 0
    private var nextID: UInt32 = 1

    /// Serves on the bus at `address`, advertising `capabilities`.
    public init(address: String, capabilities: [String] = ["body", "actions", "icon-static"]) throws {
        connection = try DBusConnection(address: address, loop: loop)
        let interface = DBusInterface(name: Self.interface, methods: [
            DBusMethod("GetCapabilities", outputs: [DBusArgument("capabilities", .array(.string))]) { [weak self] _ in
                self?.locked { $0.capabilityQueries += 1 }
                return [.array(.string, capabilities.map(DBusValue.string))]
            },
            DBusMethod(
                "Notify",
                inputs: [
                    DBusArgument("app_name", .string), DBusArgument("replaces_id", .uint32),
                    DBusArgument("app_icon", .string), DBusArgument("summary", .string),
                    DBusArgument("body", .string), DBusArgument("actions", .array(.string)),
                    DBusArgument("hints", .dictionary(key: .string, value: .variant)),
                    DBusArgument("expire_timeout", .int32),
                ],
                outputs: [DBusArgument("id", .uint32)]
            ) { [weak self] call in
                guard let self else { throw DBusError(.failed, "gone") }
                return [.uint32(try self.notify(call))]
            },
            DBusMethod("CloseNotification", inputs: [DBusArgument("id", .uint32)]) { [weak self] call in
                let id: UInt32 = try call.argument(0)
                self?.locked { $0.closeRequests.append(id) }
                try self?.emitClosed(id: id, reason: 3)
                return []
            },
            DBusMethod("GetServerInformation", outputs: [
                DBusArgument("name", .string), DBusArgument("vendor", .string),
                DBusArgument("version", .string), DBusArgument("spec_version", .string),
            ]) { _ in
                [.string("linnet-test"), .string("Linnet"), .string("1"), .string("1.2")]
            },
        ])
        try connection.export([interface], at: Self.path)
        guard try connection.requestName(Self.name, flags: .doNotQueue) == .primaryOwner else {
            throw TestSupportError("could not own \(Self.name)")
        }
    }

    deinit {
        connection.close()
        loop.stop()
    }

    /// Every Notify call so far, in order.
    public var notifications: [NotifyCall] { locked { $0.calls } }
    /// The ids CloseNotification was called with.
    public var closedByClient: [UInt32] { locked { $0.closeRequests } }
    /// How often GetCapabilities was asked.
    public var capabilityQueryCount: Int { locked { $0.capabilityQueries } }

    /// The user clicked `key` on bubble `id`: ActionInvoked, then NotificationClosed (reason 2,
    /// dismissed), as servers do. `closing: false` leaves the bubble open: a test that clicks
    /// until the client reacts (the server records a bubble before its client has the id back)
    /// must not close it under the client meanwhile.
    public func invokeAction(id: UInt32, key: String, closing: Bool = true) throws {
        try connection.emitSignal(
            "ActionInvoked", interface: Self.interface, path: Self.path, arguments: [.uint32(id), .string(key)])
        if closing { try emitClosed(id: id, reason: 2) }
    }

    /// Announces that bubble `id` closed for `reason` (1 expired, 2 dismissed, 3 closed by call).
    public func emitClosed(id: UInt32, reason: UInt32) throws {
        _ = locked { $0.open.remove(id) }
        try connection.emitSignal(
            "NotificationClosed", interface: Self.interface, path: Self.path,
            arguments: [.uint32(id), .uint32(reason)])
    }

    private func notify(_ call: DBusMethodCall) throws -> UInt32 {
        let replaces: UInt32 = try call.argument(1)
        var hints: [String: DBusValue] = [:]
        if case .dictionary(_, _, let entries) = call.arguments[6] {
            for entry in entries { if case .string(let key) = entry.key { hints[key] = entry.value.unwrapped } }
        }
        return try locked { state in
            let id: UInt32
            if replaces != 0, state.open.contains(replaces) {
                id = replaces
            } else {
                id = state.nextID
                state.nextID += 1
            }
            state.open.insert(id)
            state.calls.append(NotifyCall(
                appName: try call.argument(0), replacesID: replaces, appIcon: try call.argument(2),
                summary: try call.argument(3), body: try call.argument(4), actions: try call.argument(5),
                hints: hints, expireTimeout: try call.argument(7), id: id))
            return id
        }
    }

    private func locked<T>(_ body: (RecordingNotificationServer) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(self)
    }
}
