public import DBus
import EventLoop
import Foundation

/// The desktop portal's suspend inhibitor on a private bus: `org.freedesktop.portal.Inhibit`'s
/// `Inhibit` at `/org/freedesktop/portal/desktop` answers a request handle, and that handle's
/// `org.freedesktop.portal.Request.Close` ends the inhibition. Every call is recorded with the
/// time it arrived.
public final class RecordingPortalInhibitor: @unchecked Sendable {
    /// One inhibition: what was asked, when, and when it was closed.
    public struct Inhibition: Sendable {
        public let window: String
        public let flags: UInt32
        /// The `reason` option.
        public let reason: String?
        public let handle: ObjectPath
        public let acquiredAt: ContinuousClock.Instant
        public var closedAt: ContinuousClock.Instant?
    }

    public static let name: BusName = "org.freedesktop.portal.Desktop"
    public static let path: ObjectPath = "/org/freedesktop/portal/desktop"

    private let loop = EventLoop(name: "test.portal")
    private let connection: DBusConnection
    private let lock = NSLock()
    private var records: [Inhibition] = []

    /// Serves on the bus at `address`.
    public init(address: String) throws {
        connection = try DBusConnection(address: address, loop: loop)
        let inhibit = DBusInterface(name: "org.freedesktop.portal.Inhibit", methods: [
            DBusMethod(
                "Inhibit",
                inputs: [
                    DBusArgument("window", .string), DBusArgument("flags", .uint32),
                    DBusArgument("options", .dictionary(key: .string, value: .variant)),
                ],
                outputs: [DBusArgument("handle", .objectPath)]
            ) { [weak self] call in
                guard let self else { throw DBusError(.failed, "gone") }
                return [.objectPath(try self.inhibit(call))]
            },
        ], properties: [
            DBusProperty("version", type: .uint32, emitsChangedSignal: .const) { .uint32(3) },
        ])
        try connection.export([inhibit], at: Self.path)
        guard try connection.requestName(Self.name, flags: .doNotQueue) == .primaryOwner else {
            throw TestSupportError("could not own \(Self.name)")
        }
    }

    deinit {
        connection.close()
        loop.stop()
    }

    /// Every inhibition so far, in order.
    public var inhibitions: [Inhibition] {
        lock.lock()
        defer { lock.unlock() }
        return records
    }

    /// Inhibitions not closed yet.
    public var active: [Inhibition] { inhibitions.filter { $0.closedAt == nil } }

    private func inhibit(_ call: DBusMethodCall) throws -> ObjectPath {
        var reason: String?
        if case .string(let text)? = call.arguments[2]["reason"] { reason = text }
        lock.lock()
        let handle = ObjectPath(rawValue: "/org/freedesktop/portal/desktop/request/linnet_test/t\(records.count + 1)")!
        records.append(Inhibition(
            window: try call.argument(0), flags: try call.argument(1), reason: reason, handle: handle,
            acquiredAt: .now, closedAt: nil))
        lock.unlock()
        let request = DBusInterface(name: "org.freedesktop.portal.Request", methods: [
            DBusMethod("Close") { [weak self] _ in
                self?.close(handle)
                return []
            },
        ])
        try connection.export([request], at: handle)
        return handle
    }

    private func close(_ handle: ObjectPath) {
        lock.lock()
        if let index = records.firstIndex(where: { $0.handle == handle && $0.closedAt == nil }) {
            records[index].closedAt = .now
        }
        lock.unlock()
        connection.unexport(handle)
    }
}
