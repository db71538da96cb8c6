internal import CDBus
import Synchronization

/// One call waiting for its reply; completes exactly once, whichever path gets there first
/// (libdbus's notify, the orphaned-reply filter, or the disconnect sweep).
final class PendingCallBox: @unchecked Sendable {
    private let pending: OpaquePointer
    private let completion: @Sendable (Result<[DBusValue], DBusError>) -> Void
    private let done = Atomic<Bool>(false)

    init(pending: OpaquePointer, completion: @escaping @Sendable (Result<[DBusValue], DBusError>) -> Void) {
        self.pending = dbus_pending_call_ref(pending)
        self.completion = completion
    }

    deinit { dbus_pending_call_unref(pending) }

    /// Completes with `reply`, or with the pending call's own reply, or with `Disconnected`.
    func finish(with reply: Message?) {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let message = reply ?? dbus_pending_call_steal_reply(pending).map(Message.init(adopting:)) else {
            completion(.failure(DBusError(.disconnected, "the connection closed before a reply arrived")))
            return
        }
        if let error = message.asError {
            completion(.failure(error))
        } else {
            completion(Result { () throws(DBusError) in try message.readArguments() })
        }
    }
}

let pendingCallCompleted: DBusPendingCallNotifyFunction = { _, data in
    Unmanaged<PendingCallBox>.fromOpaque(data!).takeUnretainedValue().finish(with: nil)
}

let releasePendingCallBox: DBusFreeFunction = { data in
    Unmanaged<PendingCallBox>.fromOpaque(data!).release()
}
