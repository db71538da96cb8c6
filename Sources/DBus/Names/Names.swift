internal import CDBus

/// A D-Bus object path such as `/org/mpris/MediaPlayer2` (type code `o`).
public struct ObjectPath: ValidatedName {
    public let rawValue: String

    /// Wraps a name libdbus has validated already (a header field of a message it accepted).
    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// Creates the path if it is a valid D-Bus object path.
    public init?(rawValue: String) {
        guard isValid(rawValue, dbus_validate_path) else { return nil }
        self.rawValue = rawValue
    }

    /// The root path `/`.
    public static let root: ObjectPath = "/"

    /// The path's elements, empty for `/`.
    public var components: [Substring] {
        rawValue.split(separator: "/")
    }

    /// The path of the child element `name` below this one, or `nil` if `name` is not a valid element.
    public func appending(_ name: String) -> ObjectPath? {
        ObjectPath(rawValue: rawValue == "/" ? "/" + name : rawValue + "/" + name)
    }

    /// Whether `self` is `other` or lies below it (`/a/b` is below `/a`, `/ab` is not).
    public func isDescendant(of other: ObjectPath) -> Bool {
        // Without building `other + "/"`: queues of thousands of track ids are checked this way.
        guard other.rawValue != "/", rawValue != other.rawValue else { return true }
        return rawValue.hasPrefix(other.rawValue)
            && rawValue.utf8.dropFirst(other.rawValue.utf8.count).first == UInt8(ascii: "/")
    }
}

/// A well-known (`org.mpris.MediaPlayer2.linnet`) or unique (`:1.42`) bus name.
public struct BusName: ValidatedName {
    public let rawValue: String

    /// Wraps a name libdbus has validated already (a header field of a message it accepted).
    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// Creates the name if it is a valid bus name.
    public init?(rawValue: String) {
        guard isValid(rawValue, dbus_validate_bus_name) else { return nil }
        self.rawValue = rawValue
    }

    /// Whether this is a unique connection name (`:1.42`).
    public var isUnique: Bool { rawValue.hasPrefix(":") }

    /// The message bus itself, `org.freedesktop.DBus`.
    public static let bus: BusName = "org.freedesktop.DBus"
}

/// An interface name such as `org.mpris.MediaPlayer2.Player`.
public struct InterfaceName: ValidatedName {
    public let rawValue: String

    /// Wraps a name libdbus has validated already (a header field of a message it accepted).
    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// Creates the name if it is a valid interface name.
    public init?(rawValue: String) {
        guard isValid(rawValue, dbus_validate_interface) else { return nil }
        self.rawValue = rawValue
    }

    /// `org.freedesktop.DBus.Properties`.
    public static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    /// `org.freedesktop.DBus.Introspectable`.
    public static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    /// `org.freedesktop.DBus.Peer`.
    public static let peer: InterfaceName = "org.freedesktop.DBus.Peer"
    /// `org.freedesktop.DBus`, the bus daemon's own interface.
    public static let bus: InterfaceName = "org.freedesktop.DBus"
}

/// A method, signal or property name such as `PlayPause`.
public struct MemberName: ValidatedName {
    public let rawValue: String

    /// Wraps a name libdbus has validated already (a header field of a message it accepted).
    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// Creates the name if it is a valid member name.
    public init?(rawValue: String) {
        guard isValid(rawValue, dbus_validate_member) else { return nil }
        self.rawValue = rawValue
    }
}

/// An error name such as `org.freedesktop.DBus.Error.InvalidArgs`.
public struct ErrorName: ValidatedName {
    public let rawValue: String

    /// Creates the name if it is a valid error name.
    public init?(rawValue: String) {
        guard isValid(rawValue, dbus_validate_error_name) else { return nil }
        self.rawValue = rawValue
    }
}
