/// A remote object's interface: a destination, a path and an interface, with convenient calls and
/// property access.
public struct DBusProxy: Sendable {
    /// The connection calls go through.
    public let connection: DBusConnection
    /// The bus name called.
    public let destination: BusName
    /// The object path called.
    public let path: ObjectPath
    /// The interface called.
    public let interface: InterfaceName

    /// Creates a proxy.
    public init(connection: DBusConnection, destination: BusName, path: ObjectPath, interface: InterfaceName) {
        self.connection = connection
        self.destination = destination
        self.path = path
        self.interface = interface
    }

    /// Calls `member` with `arguments`.
    @discardableResult
    public func call(_ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration? = nil) async throws(DBusError) -> [DBusValue] {
        try await connection.call(
            destination: destination, path: path, interface: interface, member: member,
            arguments: arguments, timeout: timeout)
    }

    /// Calls `member` with `arguments`, blocking the calling thread.
    @discardableResult
    public func callBlocking(_ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration? = nil) throws(DBusError) -> [DBusValue] {
        try connection.callBlocking(
            destination: destination, path: path, interface: interface, member: member,
            arguments: arguments, timeout: timeout)
    }

    /// Reads property `name` (unwrapped from its variant).
    public func property(_ name: MemberName) async throws(DBusError) -> DBusValue {
        let reply = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "Get",
            arguments: [.string(interface.rawValue), .string(name.rawValue)])
        guard let first = reply.first, case .variant(let value) = first else {
            throw DBusError(.invalidArgs, "Get returned '\(reply.map(\.type.signature).joined())'")
        }
        return value
    }

    /// Reads every property of the interface.
    public func allProperties() async throws(DBusError) -> [String: DBusValue] {
        let reply = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "GetAll",
            arguments: [.string(interface.rawValue)])
        guard let first = reply.first, case .dictionary(.string, .variant, let entries) = first else {
            throw DBusError(.invalidArgs, "GetAll returned '\(reply.map(\.type.signature).joined())'")
        }
        var properties: [String: DBusValue] = [:]
        for entry in entries {
            if case .string(let key) = entry.key { properties[key] = entry.value.unwrappedOnce }
        }
        return properties
    }

    /// Sets property `name` to `value`.
    public func setProperty(_ name: MemberName, to value: DBusValue) async throws(DBusError) {
        _ = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "Set",
            arguments: [.string(interface.rawValue), .string(name.rawValue), .variant(value)])
    }
}
