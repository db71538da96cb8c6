/// A D-Bus error: a name such as `org.freedesktop.DBus.Error.InvalidArgs` and a human-readable
/// message. Method handlers throw it to answer with that error; calls throw it when the peer
/// answered with an error.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error name sent on the bus.
    public var name: ErrorName
    /// The explanation sent with it.
    public var message: String

    /// Creates an error named `name` explained by `message`.
    public init(_ name: ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}

extension ErrorName {
    /// A generic failure.
    public static let failed: ErrorName = "org.freedesktop.DBus.Error.Failed"
    /// Out of memory.
    public static let noMemory: ErrorName = "org.freedesktop.DBus.Error.NoMemory"
    /// The named service is not on the bus and cannot be activated.
    public static let serviceUnknown: ErrorName = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The name has no owner.
    public static let nameHasNoOwner: ErrorName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// No reply arrived in time, or the connection closed before it did.
    public static let noReply: ErrorName = "org.freedesktop.DBus.Error.NoReply"
    /// The connection is closed.
    public static let disconnected: ErrorName = "org.freedesktop.DBus.Error.Disconnected"
    /// The arguments do not match the method or property, or are out of range.
    public static let invalidArgs: ErrorName = "org.freedesktop.DBus.Error.InvalidArgs"
    /// The object has no such method.
    public static let unknownMethod: ErrorName = "org.freedesktop.DBus.Error.UnknownMethod"
    /// No object is exported at the path.
    public static let unknownObject: ErrorName = "org.freedesktop.DBus.Error.UnknownObject"
    /// The object does not implement the interface.
    public static let unknownInterface: ErrorName = "org.freedesktop.DBus.Error.UnknownInterface"
    /// The interface has no such property.
    public static let unknownProperty: ErrorName = "org.freedesktop.DBus.Error.UnknownProperty"
    /// The property cannot be set.
    public static let propertyReadOnly: ErrorName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    /// The operation is not supported.
    public static let notSupported: ErrorName = "org.freedesktop.DBus.Error.NotSupported"
    /// The caller may not do this.
    public static let accessDenied: ErrorName = "org.freedesktop.DBus.Error.AccessDenied"
    /// A limit (size, count, nesting) was exceeded.
    public static let limitsExceeded: ErrorName = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// The address is malformed.
    public static let badAddress: ErrorName = "org.freedesktop.DBus.Error.BadAddress"
    /// A signature is malformed.
    public static let invalidSignature: ErrorName = "org.freedesktop.DBus.Error.InvalidSignature"
    /// The match rule is malformed.
    public static let matchRuleInvalid: ErrorName = "org.freedesktop.DBus.Error.MatchRuleInvalid"
    /// A timeout expired.
    public static let timeout: ErrorName = "org.freedesktop.DBus.Error.Timeout"
}
