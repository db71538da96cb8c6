internal import CDBus
public import EventLoop
import Synchronization

/// A private connection to a message bus (or a peer), driven by an ``EventLoop``.
///
/// All incoming messages are dispatched on the loop thread: exported methods, property accessors
/// and signal handlers run there. Calls and signal emissions may be made from any thread. The
/// connection never exits the process: when the bus goes away it reports
/// ``DBusConnectionEvent/disconnected`` and calls fail with `Disconnected`.
public final class DBusConnection: @unchecked Sendable {
    /// Which well-known bus to connect to.
    public enum Bus: Sendable {
        /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`).
        case session
        /// The system bus.
        case system
    }

    /// `DBusConnection *`, one reference owned by this object.
    let raw: OpaquePointer
    /// The loop that dispatches this connection.
    public let loop: EventLoop
    /// This connection's unique name on the bus, e.g. `:1.42` (nil for a peer connection).
    public let uniqueName: BusName?

    struct State {
        var isOpen = true
        var eventHandlers: [UInt64: @Sendable (DBusConnectionEvent) -> Void] = [:]
        var subscriptions: [UInt64: SignalSubscriptionRecord] = [:]
        var inFlight: [UInt32: PendingCallBox] = [:]
        var objects = ObjectRegistry()
        var nextToken: UInt64 = 1
    }
    let state = Mutex(State())
    /// libdbus work submitted from other threads, waiting for the loop thread (``onLoop(_:)``).
    let outbox = Outbox()
    private var binding: LoopBinding?

    /// Connects privately to the session or system bus and registers with it.
    public convenience init(bus: Bus, loop: EventLoop = .shared) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let raw = dbus_bus_get_private(bus == .session ? DBUS_BUS_SESSION : DBUS_BUS_SYSTEM, &error)
        guard let raw else { throw DBusError(consuming: &error, fallback: "cannot connect to the \(bus) bus") }
        try self.init(adopting: raw, loop: loop, registered: true)
    }

    /// Connects privately to the bus at `address` (e.g. `unix:path=/run/…`); with
    /// `registerWithBus` false the peer is not a message bus and has no `Hello`.
    public convenience init(address: String, registerWithBus: Bool = true, loop: EventLoop = .shared) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_connection_open_private(address, &error) else {
            throw DBusError(consuming: &error, fallback: "cannot connect to \(address)")
        }
        if registerWithBus, dbus_bus_register(raw, &error) == 0 {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError(consuming: &error, fallback: "cannot register with the bus at \(address)")
        }
        try self.init(adopting: raw, loop: loop, registered: registerWithBus)
    }

    private init(adopting raw: OpaquePointer, loop: EventLoop, registered: Bool) throws(DBusError) {
        // libdbus would otherwise _exit(1) the whole process when the bus goes away.
        dbus_connection_set_exit_on_disconnect(raw, 0)
        self.raw = raw
        self.loop = loop
        self.uniqueName = registered
            ? dbus_bus_get_unique_name(raw).flatMap { BusName(rawValue: String(cString: $0)) } : nil
        // Unretained: the filter only runs inside a dispatch batch, which holds a strong reference.
        guard dbus_connection_add_filter(raw, messageFilter, Unmanaged.passUnretained(self).toOpaque(), nil) != 0
        else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError(.noMemory, "cannot install the message filter")
        }
        binding = LoopBinding(connection: self)
    }

    deinit {
        let (binding, raw) = (binding, LibdbusHandle(raw))
        let filterData = LibdbusHandle(OpaquePointer(Unmanaged.passUnretained(self).toOpaque()))
        // On the loop thread (see `onLoop`): removing the watches races with their handlers
        // anywhere else.
        loop.sync {
            binding?.detach()
            dbus_connection_remove_filter(raw.pointer, messageFilter, UnsafeMutableRawPointer(filterData.pointer))
            dbus_connection_close(raw.pointer)
        }
        dbus_connection_unref(raw.pointer)
    }

    /// Runs libdbus work that can add, toggle or remove a watch or timeout on the loop thread.
    ///
    /// libdbus calls its watch and timeout functions on whichever thread uses the connection,
    /// and a GLib source cancelled from another thread can still be running its handler on the
    /// loop, which then handled a watch libdbus had just removed or freed: "Watch is invalid"
    /// aborts, and heap corruption ("unaligned fastbin chunk") in full test runs. Confined to the
    /// loop thread, removal and handling can no longer overlap. Queued work keeps its order, also
    /// against what the loop dispatches and sends itself (``Outbox``).
    func onLoop(_ work: @escaping @Sendable () -> Void) {
        if loop.isCurrentThread || loop.isStopped {
            outbox.drain()
            work()
        } else if outbox.append(work) {
            loop.execute { [outbox] in outbox.drain() }
        }
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// The connection's socket, or -1: for tests that must know a message has reached it
    /// (polling it for input reads nothing). Only the loop thread reads from it.
    package var socketDescriptor: Int32 {
        var descriptor: Int32 = -1
        return dbus_connection_get_socket(raw, &descriptor) != 0 ? descriptor : -1
    }

    /// Closes the connection. Pending calls fail; ``DBusConnectionEvent/disconnected`` is reported.
    public func close() {
        let raw = LibdbusHandle(raw)
        loop.sync { [outbox] in
            outbox.drain()
            dbus_connection_close(raw.pointer)
        }
    }

    /// Writes everything queued to the socket before returning.
    public func flush() {
        let raw = LibdbusHandle(raw)
        loop.sync { [outbox] in
            outbox.drain()
            dbus_connection_flush(raw.pointer)
        }
    }

    /// Sends `message` now; libdbus writes it at once when the socket allows.
    /// From another thread the message is queued to the loop thread (see ``onLoop(_:)``), where
    /// only running out of memory could still lose it. The queued send holds the connection:
    /// without it, the last reference could be dropped on the loop thread (by a dispatch still
    /// running when the caller let go), and the connection was closed and freed before the send
    /// ran on it (a use after free in libdbus; `DispatchChurnTests`).
    func send(_ message: Message) throws(DBusError) {
        guard isConnected else { throw DBusError(.disconnected, "the connection is closed") }
        if loop.isCurrentThread {
            outbox.drain()
            guard dbus_connection_send(raw, message.raw, nil) != 0 else {
                throw DBusError(.noMemory, "cannot queue a message")
            }
            return
        }
        let queued = UncheckedMessage(message)
        onLoop { [self] in _ = dbus_connection_send(raw, queued.message.raw, nil) }
    }

    /// Returns a new token for handler tables.
    func makeToken() -> UInt64 {
        state.withLock { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
    }
}

/// The one filter every connection installs; `data` is the unretained `DBusConnection`.
private let messageFilter: DBusHandleMessageFunction = { _, message, data in
    let connection = Unmanaged<DBusConnection>.fromOpaque(data!).takeUnretainedValue()
    return connection.handleIncoming(Message(retaining: message!))
}

extension DBusError {
    /// Converts a filled libdbus error into a Swift error and frees it.
    init(consuming error: inout CDBus.DBusError, fallback: String) {
        if dbus_error_is_set(&error) != 0 {
            let name = error.name.flatMap { ErrorName(rawValue: String(cString: $0)) } ?? .failed
            let message = error.message.map { String(cString: $0) } ?? fallback
            self.init(name, message)
        } else {
            self.init(.failed, fallback)
        }
        dbus_error_free(&error)
    }
}

/// A libdbus pointer carried to the loop thread; libdbus's own locking makes that safe, and the
/// loop thread is the only one to use it there.
struct LibdbusHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// A message handed to the loop thread, which alone uses it from then on.
struct UncheckedMessage: @unchecked Sendable {
    let message: Message
    init(_ message: Message) { self.message = message }
}
