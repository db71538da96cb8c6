internal import CDBus
import Synchronization

/// One call waiting for its reply; completes exactly once, whichever path gets there first
/// (libdbus's notify, the orphaned-reply filter, or the disconnect sweep).
///
/// The pending call keeps the box as its notify data, and the box keeps a reference to the
/// pending call until it finishes: holding it longer made a cycle that leaked both for every
/// call (LeakSanitizer found it under `make check`).
final class PendingCallBox: @unchecked Sendable {
    /// Touched only by the one `finish` that wins `done`, and by `deinit`.
    private var pending: OpaquePointer?
    private let completion: @Sendable (Result<[DBusValue], DBusError>) -> Void
    private let done = Atomic<Bool>(false)

    init(pending: OpaquePointer, completion: @escaping @Sendable (Result<[DBusValue], DBusError>) -> Void) {
        self.pending = dbus_pending_call_ref(pending)
        self.completion = completion
    }

    deinit {
        if let pending { dbus_pending_call_unref(pending) }
    }

    /// Completes with `reply`, or with the pending call's own reply, or with `Disconnected`.
    func finish(with reply: Message?) {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let call = pending
        pending = nil
        // Dropping the box's reference breaks the cycle: once libdbus lets go of the call, it
        // frees it and releases the box.
        defer { if let call { dbus_pending_call_unref(call) } }
        guard let message = reply ?? call.flatMap(dbus_pending_call_steal_reply).map(Message.init(adopting:)) else {
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
