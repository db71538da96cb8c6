public import DBus
import EventLoop
import Synchronization

/// logind on a private bus standing in for the system bus, as far as a screen watcher asks:
/// `Manager.GetSession("auto")` names one session object, whose `IdleHint` and `LockedHint`
/// the test sets; each change is announced with PropertiesChanged as logind does.
public final class FakeLogindSession: Sendable {
    public static let name: BusName = "org.freedesktop.login1"
    public static let sessionPath: ObjectPath = "/org/freedesktop/login1/session/_31"
    static let sessionInterface: InterfaceName = "org.freedesktop.login1.Session"

    private let loop = EventLoop(name: "test.logind-session")
    private let connection: DBusConnection
    private let hints = Hints()

    /// Serves on the bus at `address`, neither idle nor locked.
    public init(address: String) throws {
        connection = try DBusConnection(address: address, loop: loop)
        let manager = DBusInterface(name: "org.freedesktop.login1.Manager", methods: [
            DBusMethod("GetSession", inputs: [DBusArgument("session_id", .string)], outputs: [DBusArgument("object_path", .objectPath)]) { call in
                guard try call.argument(0, as: String.self) == "auto" else { throw DBusError(.invalidArgs, "only auto here") }
                return [.objectPath(Self.sessionPath)]
            },
        ])
        let hints = self.hints
        let session = DBusInterface(name: Self.sessionInterface, properties: [
            DBusProperty("IdleHint", type: .boolean) { .boolean(hints.value.withLock { $0.idle }) },
            DBusProperty("LockedHint", type: .boolean) { .boolean(hints.value.withLock { $0.locked }) },
        ])
        try connection.export([manager], at: "/org/freedesktop/login1")
        try connection.export([session], at: Self.sessionPath)
        guard try connection.requestName(Self.name, flags: .doNotQueue) == .primaryOwner else {
            throw TestSupportError("could not own \(Self.name)")
        }
    }

    deinit {
        connection.close()
        loop.stop()
    }

    /// Sets IdleHint and announces it.
    public func setIdle(_ idle: Bool) throws {
        hints.value.withLock { $0.idle = idle }
        try connection.notifyPropertiesChanged(["IdleHint"], interface: Self.sessionInterface, path: Self.sessionPath)
    }

    /// Sets LockedHint and announces it.
    public func setLocked(_ locked: Bool) throws {
        hints.value.withLock { $0.locked = locked }
        try connection.notifyPropertiesChanged(["LockedHint"], interface: Self.sessionInterface, path: Self.sessionPath)
    }
}

/// Shared between the fake and its property getters.
private final class Hints: Sendable {
    let value = Mutex((idle: false, locked: false))
}
