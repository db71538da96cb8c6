internal import CDBus
import Synchronization

/// The reply to a call a ``DBusMethodHandler/deferred(_:)`` handler answers later. Answer it once,
/// from any thread; an unanswered reply answers `org.freedesktop.DBus.Error.Failed` when dropped,
/// so the caller never waits for a timeout.
public final class DBusPendingReply: Sendable {
    private let call: Message
    private weak let connection: DBusConnection?
    private let outputs: [DBusType]
    private let answered = Atomic<Bool>(false)

    init(call: Message, connection: DBusConnection, outputs: [DBusType]) {
        self.call = call
        self.connection = connection
        self.outputs = outputs
    }

    /// Answers with `values`, which must match the method's declared outputs.
    public func succeed(_ values: [DBusValue]) {
        guard claim() else { return }
        connection?.sendReply(to: call, result: .success(values), outputs: outputs)
    }

    /// Answers with `error`: a ``DBusError`` keeps its name, anything else becomes `Failed`.
    public func fail(_ error: any Error) {
        guard claim() else { return }
        connection?.sendReply(to: call, result: .failure(error), outputs: outputs)
    }

    private func claim() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            connection?.sendReply(
                to: call, result: .failure(DBusError(.failed, "the handler did not answer")), outputs: outputs)
        }
    }
}
