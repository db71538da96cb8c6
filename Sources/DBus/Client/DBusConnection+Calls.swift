internal import CDBus
import Synchronization

extension DBusConnection {
    /// Calls a method and waits asynchronously for its reply values. A D-Bus error reply throws
    /// ``DBusError`` with the peer's name and message; no reply within `timeout` throws `NoReply`.
    public func call(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], timeout: Duration? = nil
    ) async throws(DBusError) -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        let result: Result<[DBusValue], DBusError> = await withCheckedContinuation { continuation in
            sendWithReply(message, timeout: timeout) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Calls a method and blocks the calling thread until the reply arrives. Safe on any thread,
    /// the loop thread included (libdbus reads the socket itself meanwhile).
    public func callBlocking(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], timeout: Duration? = nil
    ) throws(DBusError) -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        guard isConnected else { throw DBusError(.disconnected, "the connection is closed") }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, Self.milliseconds(timeout), &error) else {
            throw DBusError(consuming: &error, fallback: "\(member) failed")
        }
        return try Message(adopting: reply).readArguments()
    }

    /// Sends a call that wants no reply (the NO_REPLY_EXPECTED flag).
    public func callNoReply(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = []
    ) throws(DBusError) {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        message.setNoReply()
        try send(message)
    }

    /// Sends `message` and calls `completion` once, on the loop thread or at once on failure.
    func sendWithReply(
        _ message: Message, timeout: Duration?,
        completion: @escaping @Sendable (Result<[DBusValue], DBusError>) -> Void
    ) {
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Self.milliseconds(timeout)) != 0,
            let pending
        else {
            completion(.failure(DBusError(.disconnected, "the connection is closed")))
            return
        }
        let box = PendingCallBox(pending: pending, completion: completion)
        let data = Unmanaged.passRetained(box).toOpaque()
        guard dbus_pending_call_set_notify(pending, pendingCallCompleted, data, releasePendingCallBox) != 0 else {
            Unmanaged<PendingCallBox>.fromOpaque(data).release()
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            completion(.failure(DBusError(.noMemory, "cannot wait for a reply")))
            return
        }
        // The reply may have been dispatched between send and set_notify; then the notify will
        // never come, so finish here. `finish` runs the completion only once either way.
        if dbus_pending_call_get_completed(pending) != 0 { box.finish() }
        dbus_pending_call_unref(pending)
    }

    static func milliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return Int32(linnet_dbus_timeout_use_default()) }
        let value = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, value))
    }
}

/// Holds a pending call's completion until libdbus reports the reply.
private final class PendingCallBox: @unchecked Sendable {
    private let pending: OpaquePointer
    private let completion: @Sendable (Result<[DBusValue], DBusError>) -> Void
    private let done = Atomic<Bool>(false)

    init(pending: OpaquePointer, completion: @escaping @Sendable (Result<[DBusValue], DBusError>) -> Void) {
        self.pending = dbus_pending_call_ref(pending)
        self.completion = completion
    }

    deinit { dbus_pending_call_unref(pending) }

    func finish() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let reply = dbus_pending_call_steal_reply(pending) else {
            completion(.failure(DBusError(.noReply, "no reply")))
            return
        }
        let message = Message(adopting: reply)
        if let error = message.asError {
            completion(.failure(error))
        } else {
            completion(Result { () throws(DBusError) in try message.readArguments() })
        }
    }
}

private let pendingCallCompleted: DBusPendingCallNotifyFunction = { _, data in
    Unmanaged<PendingCallBox>.fromOpaque(data!).takeUnretainedValue().finish()
}

private let releasePendingCallBox: DBusFreeFunction = { data in
    Unmanaged<PendingCallBox>.fromOpaque(data!).release()
}
