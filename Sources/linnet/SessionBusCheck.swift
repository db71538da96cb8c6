import DBus
import FoundationEssentials
import Glibc
import LibraryFormats

/// linnet serves only on its user's own session bus. On the system bus the policy would refuse
/// it a name anyway; this check does not rely on that: it refuses, before anything is exported,
/// a session address that names the system bus's socket, and a bus whose daemon runs as
/// another user (the kernel's record of the socket's peer), which no session bus of ours does.
enum SessionBusCheck {
    /// Where the system bus listens when `DBUS_SYSTEM_BUS_ADDRESS` does not say (the D-Bus
    /// specification's default, and its /run spelling).
    static let defaultSystemAddresses = ["unix:path=/var/run/dbus/system_bus_socket", "unix:path=/run/dbus/system_bus_socket"]

    /// This process's values of the variables ``problem(connection:environment:)`` reads.
    static func processVariables() -> [String: String] {
        ProcessEnvironment.values(["DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS"])
    }

    /// Why `connection` (made from `environment`) is not this user's session bus, or nil.
    static func problem(connection: DBusConnection, environment: [String: String]) -> String? {
        let session = sockets(in: environment["DBUS_SESSION_BUS_ADDRESS"] ?? "")
        // Address by address, not joined into one: `joined(separator:)` looks up Array's
        // Collection conformance at run time, a scan of every conformance, before the bus name.
        var system = Set<String>()
        for address in [environment["DBUS_SYSTEM_BUS_ADDRESS"]].compactMap({ $0 }) + defaultSystemAddresses {
            system.formUnion(sockets(in: address))
        }
        if !session.isDisjoint(with: system) {
            return "DBUS_SESSION_BUS_ADDRESS names the system bus; linnet serves only on a desktop session bus"
        }
        let user = geteuid()
        if let owner = connection.peerUserID, owner != user {
            return "the session bus is run by user \(owner), not by this user (\(user)); linnet serves only on its user's own session bus"
        }
        return nil
    }

    /// The Unix sockets a D-Bus address names, as `path:<real path>` or `abstract:<name>`.
    static func sockets(in address: String) -> Set<String> {
        var sockets = Set<String>()
        for entry in address.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let value = FileURI.percentDecoded(parts[1]) else { continue }
                switch parts[0] {
                case "path": sockets.insert("path:" + (realpath(value) ?? value))
                case "abstract": sockets.insert("abstract:" + value)
                default: break
                }
            }
        }
        return sockets
    }

    /// `path` with symlinks resolved (/var/run is usually a link to /run), if it exists.
    private static func realpath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
