public import DBus
import EventLoop
import Foundation

/// logind's `org.freedesktop.login1.Manager.Inhibit` on a private bus (run one as the "system"
/// bus): it answers with the write end of a pipe and watches the read end, so the moment every
/// copy of the descriptor is closed — which is how a client releases the lock — is recorded.
public final class RecordingLogind: @unchecked Sendable {
    /// One inhibitor lock: its arguments and lifetime.
    public struct Lock: Sendable {
        public let what: String
        public let who: String
        public let why: String
        public let mode: String
        public let acquiredAt: ContinuousClock.Instant
        public var releasedAt: ContinuousClock.Instant?
    }

    public static let name: BusName = "org.freedesktop.login1"
    public static let path: ObjectPath = "/org/freedesktop/login1"

    private let loop = EventLoop(name: "test.logind")
    private let connection: DBusConnection
    private let lock = NSLock()
    private var records: [Lock] = []
    private var watches: [EventSource] = []

    /// Serves on the bus at `address`.
    public init(address: String) throws {
        connection = try DBusConnection(address: address, loop: loop)
        let manager = DBusInterface(name: "org.freedesktop.login1.Manager", methods: [
            DBusMethod(
                "Inhibit",
                inputs: [
                    DBusArgument("what", .string), DBusArgument("who", .string),
                    DBusArgument("why", .string), DBusArgument("mode", .string),
                ],
                outputs: [DBusArgument("fd", .unixFD)]
            ) { [weak self] call in
                guard let self else { throw DBusError(.failed, "gone") }
                return [.unixFD(try self.inhibit(call))]
            },
        ])
        try connection.export([manager], at: Self.path)
        guard try connection.requestName(Self.name, flags: .doNotQueue) == .primaryOwner else {
            throw TestSupportError("could not own \(Self.name)")
        }
    }

    deinit {
        lock.lock()
        let sources = watches
        lock.unlock()
        for source in sources { source.cancel() }
        connection.close()
        loop.stop()
    }

    /// Every lock so far, in order.
    public var locks: [Lock] {
        lock.lock()
        defer { lock.unlock() }
        return records
    }

    /// Locks whose descriptor is still open somewhere.
    public var active: [Lock] { locks.filter { $0.releasedAt == nil } }

    /// Runs on the loop thread (method handlers do), where the watch is attached too.
    private func inhibit(_ call: DBusMethodCall) throws -> UnixFileDescriptor {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw DBusError(.failed, "pipe failed: errno \(errno)") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        lock.lock()
        let index = records.count
        records.append(Lock(
            what: try call.argument(0), who: try call.argument(1), why: try call.argument(2),
            mode: try call.argument(3), acquiredAt: .now, releasedAt: nil))
        lock.unlock()
        let source = loop.watch(fileDescriptor: readEnd, events: [.readable, .hangup]) { [weak self] _ in
            // Nothing is ever written: readable means end of file, every writer is gone.
            var byte: UInt8 = 0
            guard read(readEnd, &byte, 1) <= 0 else { return .keep }
            close(readEnd)
            self?.released(index)
            return .remove
        }
        lock.lock()
        watches.append(source)
        lock.unlock()
        // The reply carries a duplicate; this object's copy closes once the reply is built.
        return UnixFileDescriptor(taking: writeEnd)
    }

    private func released(_ index: Int) {
        lock.lock()
        records[index].releasedAt = .now
        lock.unlock()
    }
}
