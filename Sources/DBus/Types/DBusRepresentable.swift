/// A Swift type with a fixed D-Bus type. The signature belongs to the Swift type, so an empty
/// `[String]` is still sent as `as`.
public protocol DBusRepresentable: Sendable {
    /// The D-Bus type every value of this Swift type has.
    static var dbusType: DBusType { get }
    /// This value as a D-Bus value of type ``dbusType``.
    var dbusValue: DBusValue { get }
    /// Decodes a D-Bus value, throwing `InvalidArgs` when it has another type.
    init(dbusValue: DBusValue) throws(DBusError)
}

/// The error for a value whose type is not the one expected.
func typeMismatch(_ value: DBusValue, expected: DBusType) -> DBusError {
    DBusError(.invalidArgs, "expected a value of type '\(expected)', got '\(value.type)'")
}

extension UInt8: DBusRepresentable {
    public static var dbusType: DBusType { .byte }
    public var dbusValue: DBusValue { .byte(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .byte(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .byte) }
        self = value
    }
}

extension Bool: DBusRepresentable {
    public static var dbusType: DBusType { .boolean }
    public var dbusValue: DBusValue { .boolean(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .boolean(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .boolean) }
        self = value
    }
}

extension Int16: DBusRepresentable {
    public static var dbusType: DBusType { .int16 }
    public var dbusValue: DBusValue { .int16(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int16(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .int16) }
        self = value
    }
}

extension UInt16: DBusRepresentable {
    public static var dbusType: DBusType { .uint16 }
    public var dbusValue: DBusValue { .uint16(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint16(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .uint16) }
        self = value
    }
}

extension Int32: DBusRepresentable {
    public static var dbusType: DBusType { .int32 }
    public var dbusValue: DBusValue { .int32(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int32(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .int32) }
        self = value
    }
}

extension UInt32: DBusRepresentable {
    public static var dbusType: DBusType { .uint32 }
    public var dbusValue: DBusValue { .uint32(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint32(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .uint32) }
        self = value
    }
}

extension Int64: DBusRepresentable {
    public static var dbusType: DBusType { .int64 }
    public var dbusValue: DBusValue { .int64(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int64(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .int64) }
        self = value
    }
}

extension UInt64: DBusRepresentable {
    public static var dbusType: DBusType { .uint64 }
    public var dbusValue: DBusValue { .uint64(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint64(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .uint64) }
        self = value
    }
}

extension Double: DBusRepresentable {
    public static var dbusType: DBusType { .double }
    public var dbusValue: DBusValue { .double(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .double(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .double) }
        self = value
    }
}

extension String: DBusRepresentable {
    public static var dbusType: DBusType { .string }
    public var dbusValue: DBusValue { .string(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .string(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .string) }
        self = value
    }
}

extension ObjectPath: DBusRepresentable {
    public static var dbusType: DBusType { .objectPath }
    public var dbusValue: DBusValue { .objectPath(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .objectPath(let value) = dbusValue else {
            throw typeMismatch(dbusValue, expected: .objectPath)
        }
        self = value
    }
}

extension DBusSignature: DBusRepresentable {
    public static var dbusType: DBusType { .signature }
    public var dbusValue: DBusValue { .signature(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .signature(let value) = dbusValue else {
            throw typeMismatch(dbusValue, expected: .signature)
        }
        self = value
    }
}

extension UnixFileDescriptor: DBusRepresentable {
    public static var dbusType: DBusType { .unixFD }
    public var dbusValue: DBusValue { .unixFD(self) }
    public convenience init(dbusValue: DBusValue) throws(DBusError) {
        guard case .unixFD(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .unixFD) }
        try self.init(duplicating: value.rawValue)
    }
}

/// A value of any type in a variant (`v`): the Swift face of D-Bus's self-describing values.
public struct DBusVariant: DBusRepresentable, Hashable {
    /// The value inside.
    public var value: DBusValue

    /// Wraps `value`.
    public init(_ value: DBusValue) { self.value = value }

    /// Wraps a Swift value.
    public init(_ value: some DBusRepresentable) { self.value = value.dbusValue }

    public static var dbusType: DBusType { .variant }
    public var dbusValue: DBusValue { .variant(value) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .variant(let value) = dbusValue else { throw typeMismatch(dbusValue, expected: .variant) }
        self.value = value
    }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    public static var dbusType: DBusType { .array(Element.dbusType) }
    public var dbusValue: DBusValue { .array(Element.dbusType, map(\.dbusValue)) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .array(let element, let values) = dbusValue, element == Element.dbusType else {
            throw typeMismatch(dbusValue, expected: Self.dbusType)
        }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for value in values { result.append(try Element(dbusValue: value)) }
        self = result
    }
}

extension Dictionary: DBusRepresentable where Key: DBusRepresentable, Value: DBusRepresentable {
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }
    public var dbusValue: DBusValue {
        .dictionary(
            key: Key.dbusType, value: Value.dbusType,
            map { DBusDictionaryEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) })
    }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .dictionary(let key, let value, let entries) = dbusValue,
            key == Key.dbusType, value == Value.dbusType
        else { throw typeMismatch(dbusValue, expected: Self.dbusType) }
        var result: [Key: Value] = [:]
        for entry in entries {
            result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value)
        }
        self = result
    }
}
