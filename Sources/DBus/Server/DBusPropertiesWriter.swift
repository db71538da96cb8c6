import Synchronization

/// How GetAll writes one interface's entries in one pass (``DBusInterface/propertiesWriter``).
public struct DBusPropertiesWriter: Sendable {
    let write: @Sendable (inout DBusMessageWriter) -> Void
    let reusable: ReusableReply?

    /// Writes one `{sv}` per readable property, in declaration order, each holding what that
    /// property's ``DBusProperty/writer`` would write. Stopping the writer sends GetAll down the
    /// getters' path.
    public init(_ write: @escaping @Sendable (inout DBusMessageWriter) -> Void) {
        self.write = write
        reusable = nil
    }

    /// As ``init(_:)``, and GetAll replies are reused while the values stay put.
    ///
    /// `snapshot` returns an object standing for everything the entries would hold now, the
    /// same object (`===`) exactly as long as that is unchanged; or nil while the values are
    /// moving, and `write` then writes them. A reply written from a snapshot (by
    /// `writeSnapshot`, which must write what `write` would for it) is copied for every later
    /// GetAll of this interface alone that gets the same snapshot: libdbus copies its bytes, and
    /// the copy's reply serial and destination are set for the new caller.
    public init<Snapshot: AnyObject & Sendable>(
        _ write: @escaping @Sendable (inout DBusMessageWriter) -> Void,
        snapshot: @escaping @Sendable () -> Snapshot?,
        writeSnapshot: @escaping @Sendable (Snapshot, inout DBusMessageWriter) -> Void
    ) {
        self.write = write
        reusable = ReusableReply(
            snapshot: { snapshot() },
            write: { object, writer in writeSnapshot(unsafeDowncast(object, to: Snapshot.self), &writer) })
    }
}

/// The last GetAll reply written from a snapshot, kept unsent (serial 0) as a template.
final class ReusableReply: Sendable {
    typealias Snapshot = any AnyObject & Sendable

    let snapshot: @Sendable () -> Snapshot?
    let write: @Sendable (Snapshot, inout DBusMessageWriter) -> Void
    private let last = Mutex<(snapshot: Snapshot, template: UncheckedMessage)?>(nil)

    init(snapshot: @escaping @Sendable () -> Snapshot?, write: @escaping @Sendable (Snapshot, inout DBusMessageWriter) -> Void) {
        self.snapshot = snapshot
        self.write = write
    }

    /// The reply to `call` for `snapshot`: a copy of the template when it was written for the
    /// same snapshot, otherwise written now (and kept); nil when the writing stopped.
    func reply(to call: Message, for snapshot: Snapshot) -> Message? {
        let template = last.withLock { last in last.flatMap { $0.snapshot === snapshot ? $0.template : nil } }
        if let template { return template.message.copy(replyingTo: call) }
        guard let reply = try? call.makeReturn(writing: { body in
            body.appendArray(of: .stringVariantEntry) { map in write(snapshot, &map) }
        }) else { return nil }
        // Copied before it is sent: sending gives the message a serial, which a copy would keep.
        if let kept = reply.unsentCopy() {
            last.withLock { $0 = (snapshot, UncheckedMessage(kept)) }
        }
        return reply
    }
}
