internal import CDBus
import Dispatch
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
    /// the loop thread included.
    public func callBlocking(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], timeout: Duration? = nil
    ) throws(DBusError) -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        guard isConnected else { throw DBusError(.disconnected, "the connection is closed") }
        if loop.isCurrentThread {
            // The loop cannot deliver the reply while we wait on it, so libdbus reads it here.
            var error = CDBus.DBusError()
            dbus_error_init(&error)
            guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, Self.milliseconds(timeout), &error) else {
                throw DBusError(consuming: &error, fallback: "\(member) failed")
            }
            return try Message(adopting: reply).readArguments()
        }
        // Elsewhere, let the loop thread read the reply: threads that each block inside libdbus
        // take turns on its I/O lock and were measured several times slower.
        let waiter = BlockingReply()
        sendWithReply(message, timeout: timeout) { waiter.deliver($0) }
        return try waiter.wait().get()
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
        // Adding the call's timeout must happen on the loop thread (see `onLoop`).
        guard loop.isCurrentThread || loop.isStopped else {
            let queued = UncheckedMessage(message)
            onLoop { [self] in sendWithReply(queued.message, timeout: timeout, completion: completion) }
            return
        }
        outbox.drain()
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Self.milliseconds(timeout)) != 0,
            let pending
        else {
            completion(.failure(DBusError(.disconnected, "the connection is closed")))
            return
        }
        let serial = message.serial
        let box = PendingCallBox(pending: pending) { [weak self] result in
            self?.state.withLock { _ = $0.inFlight.removeValue(forKey: serial) }
            completion(result)
        }
        state.withLock { $0.inFlight[serial] = box }
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
        if dbus_pending_call_get_completed(pending) != 0 { box.finish(with: nil) }
        dbus_pending_call_unref(pending)
    }

    static func milliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return Int32(linnet_dbus_timeout_use_default()) }
        let value = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, value))
    }

    /// Completes an in-flight call from a reply that libdbus handed to the filters instead of
    /// to its pending call. libdbus 1.14 does this on disconnect: it detaches every pending call,
    /// queues a synthesized NoReply error for each, and never calls their notify functions.
    func completeOrphanedReply(_ message: Message) -> Bool {
        let serial = dbus_message_get_reply_serial(message.raw)
        guard let box = state.withLock({ $0.inFlight[serial] }) else { return false }
        box.finish(with: message)
        return true
    }

    /// Fails every call still waiting, once the connection is gone.
    func failCallsInFlight() {
        let boxes = state.withLock { state in
            defer { state.inFlight.removeAll() }
            return Array(state.inFlight.values)
        }
        for box in boxes { box.finish(with: nil) }
    }
}

/// Hands a reply from the loop thread to a thread blocked in `callBlocking`.
private final class BlockingReply: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var result: Result<[DBusValue], DBusError>?

    func deliver(_ result: Result<[DBusValue], DBusError>) {
        self.result = result
        ready.signal()
    }

    /// The semaphore orders the write in `deliver` before this read.
    func wait() -> Result<[DBusValue], DBusError> {
        ready.wait()
        return result!
    }
}
