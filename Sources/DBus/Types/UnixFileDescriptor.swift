import Glibc

/// A Unix file descriptor passed over D-Bus (type code `h`). The object owns its descriptor and
/// closes it when the last reference goes away.
public final class UnixFileDescriptor: Hashable, Sendable {
    /// The descriptor number, valid while this object lives.
    public let rawValue: Int32

    /// Takes ownership of `descriptor`.
    public init(taking descriptor: Int32) {
        rawValue = descriptor
    }

    /// Duplicates `descriptor`; the caller keeps its own.
    public init(duplicating descriptor: Int32) throws(DBusError) {
        let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            throw DBusError(.invalidArgs, "cannot duplicate file descriptor \(descriptor): errno \(errno)")
        }
        rawValue = duplicate
    }

    deinit { close(rawValue) }

    public static func == (lhs: UnixFileDescriptor, rhs: UnixFileDescriptor) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
