public import DBus
import EventLoop
import Synchronization

/// `org.freedesktop.ScreenSaver` on a private bus, owned by a test: `GetActive` answers what the
/// test set, and ``setActive(_:confirmingWith:)`` emits `ActiveChanged` as a locking desktop does.
public final class FakeScreenSaver: Sendable {
    public static let name: BusName = "org.freedesktop.ScreenSaver"
    public static let path: ObjectPath = "/org/freedesktop/ScreenSaver"
    public static let interface: InterfaceName = "org.freedesktop.ScreenSaver"

    private let loop = EventLoop(name: "test.screensaver")
    private let connection: DBusConnection
    private let active = ActiveFlag()

    /// Serves on the bus at `address`, inactive (the screen on).
    public init(address: String) throws {
        connection = try DBusConnection(address: address, loop: loop)
        let active = self.active
        let screenSaver = DBusInterface(name: Self.interface, methods: [
            DBusMethod("GetActive", outputs: [DBusArgument("active", .boolean)]) { _ in
                [.boolean(active.value.withLock { $0 })]
            },
        ], signals: [DBusSignalDeclaration("ActiveChanged", arguments: [DBusArgument("active", .boolean)])])
        try connection.export([screenSaver], at: Self.path)
        guard try connection.requestName(Self.name, flags: .doNotQueue) == .primaryOwner else {
            throw TestSupportError("could not own \(Self.name)")
        }
    }

    deinit {
        connection.close()
        loop.stop()
    }

    /// Locks (true) or unlocks the "screen" and emits ActiveChanged; then pings `peer` from the
    /// same connection. The bus keeps one sender's messages in order, so when the ping returns
    /// `peer` has dispatched the signal.
    public func setActive(_ value: Bool, confirmingWith peer: BusName) async throws {
        active.value.withLock { $0 = value }
        try connection.emitSignal("ActiveChanged", interface: Self.interface, path: Self.path, arguments: [.boolean(value)])
        _ = try await connection.call(
            destination: peer, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping", timeout: .seconds(10))
    }
}

/// Shared between the saver and its GetActive handler.
private final class ActiveFlag: Sendable {
    let value = Mutex(false)
}
