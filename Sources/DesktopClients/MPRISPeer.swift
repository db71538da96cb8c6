public import DBus

/// Another MPRIS player on the bus, seen from outside: the few calls the focus coordinator
/// makes, each bounded by a timeout.
public struct MPRISPeer: Sendable {
    public static let namePrefix = "org.mpris.MediaPlayer2."
    public static let path: ObjectPath = "/org/mpris/MediaPlayer2"
    public static let playerInterface: InterfaceName = "org.mpris.MediaPlayer2.Player"

    public let connection: DBusConnection
    public let name: BusName
    public let timeout: Duration

    /// The string-keyed entries of an `a{sv}` (PropertiesChanged, GetAll), unwrapped.
    public static func properties(in value: DBusValue) -> [String: DBusValue] {
        guard case .dictionary(.string, _, let entries) = value else { return [:] }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            if case .string(let key) = entry.key { result[key] = entry.value.unwrapped }
        }
        return result
    }

    public func call(_ member: MemberName) async throws(DBusError) {
        _ = try await connection.call(
            destination: name, path: Self.path, interface: Self.playerInterface, member: member, timeout: timeout)
    }

    public func allProperties() async throws(DBusError) -> [String: DBusValue] {
        let reply = try await connection.call(
            destination: name, path: Self.path, interface: .properties, member: "GetAll",
            arguments: [.string(Self.playerInterface.rawValue)], timeout: timeout)
        return Self.properties(in: reply.first ?? .array(.string, []))
    }

    public func volume() async throws(DBusError) -> Double {
        let reply = try await connection.call(
            destination: name, path: Self.path, interface: .properties, member: "Get",
            arguments: [.string(Self.playerInterface.rawValue), .string("Volume")], timeout: timeout)
        guard case .double(let volume)? = reply.first?.unwrapped else {
            throw DBusError(.invalidArgs, "\(name) has no numeric Volume")
        }
        return volume
    }

    public func setVolume(_ volume: Double) async throws(DBusError) {
        _ = try await connection.call(
            destination: name, path: Self.path, interface: .properties, member: "Set",
            arguments: [.string(Self.playerInterface.rawValue), .string("Volume"), .variant(.double(volume))],
            timeout: timeout)
    }
}
