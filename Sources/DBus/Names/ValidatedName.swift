internal import CDBus

/// A string that D-Bus accepts only in a particular syntax (object paths, bus, interface, member
/// and error names). Values are checked by libdbus's own validators when created.
public protocol ValidatedName: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral, Comparable where RawValue == String
{
    /// Creates the name if `rawValue` is valid, or `nil`.
    init?(rawValue: String)
}

extension ValidatedName {
    /// Creates the name or throws `org.freedesktop.DBus.Error.InvalidArgs` saying why it is invalid.
    public init(validating string: String) throws(DBusError) {
        guard let name = Self(rawValue: string) else {
            throw DBusError(.invalidArgs, "invalid \(Self.self): \"\(string.prefix(256))\"")
        }
        self = name
    }

    /// A literal must be valid; an invalid literal is a programming error.
    public init(stringLiteral value: String) {
        guard let name = Self(rawValue: value) else {
            preconditionFailure("invalid \(Self.self) literal \"\(value)\"")
        }
        self = name
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Runs one of libdbus's `dbus_validate_*` functions on `string`.
func isValid(
    _ string: String,
    _ validator: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t
) -> Bool {
    // libdbus reads C strings: an embedded NUL would silently truncate, so refuse it here.
    // The contiguous scan is the fast path: the generic `utf8.contains` showed up in the
    // profile of every served call (names are validated per message).
    let hasNUL = string.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? string.utf8.contains(0)
    guard !hasNUL else { return false }
    return string.withCString { validator($0, nil) != 0 }
}
