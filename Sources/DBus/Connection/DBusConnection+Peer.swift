internal import CDBus
import Glibc

extension DBusConnection {
    /// The user id of the process at the other end of the connection's socket, as the kernel
    /// recorded it (`SO_PEERCRED`): for a bus connection, the user the bus daemon runs as. Nil
    /// when the transport is not a Unix socket or the kernel does not say.
    public var peerUserID: UInt32? {
        var fd: Int32 = -1
        guard dbus_connection_get_socket(raw, &fd) != 0, fd >= 0 else { return nil }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Linux ABI), spelled out because
        // Glibc declares it only under _GNU_SOURCE, which the Swift import does not define.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout.size(ofValue: credentials)
        else { return nil }
        return credentials.uid
    }
}
