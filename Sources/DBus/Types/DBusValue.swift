/// One D-Bus value of any type, as it travels in a message.
///
/// Containers carry their element types, so an empty array or dictionary is still fully typed:
/// `.array(.string, [])` goes out as `as`. Use ``DBusRepresentable`` to convert to and from Swift
/// types.
public indirect enum DBusValue: Hashable, Sendable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case boolean(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `o`
    case objectPath(ObjectPath)
    /// `g`
    case signature(DBusSignature)
    /// `h`
    case unixFD(UnixFileDescriptor)
    /// `aT`: the element type and the elements, each of that type.
    case array(DBusType, [DBusValue])
    /// `a{KV}`: key and value types and the entries, in order.
    case dictionary(key: DBusType, value: DBusType, [DBusDictionaryEntry])
    /// `(…)`: one or more fields.
    case structure([DBusValue])
    /// `v`: a value with its own type.
    case variant(DBusValue)

    /// The complete type of this value.
    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    /// The value inside a variant (recursively), or the value itself.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// Decodes this value as `T`, throwing `InvalidArgs` on a type mismatch.
    public func decode<T: DBusRepresentable>(as _: T.Type = T.self) throws(DBusError) -> T {
        try T(dbusValue: self)
    }
}

/// One entry of a ``DBusValue/dictionary(key:value:_:)``.
public struct DBusDictionaryEntry: Hashable, Sendable {
    /// The key, of the dictionary's basic key type.
    public var key: DBusValue
    /// The value, of the dictionary's value type.
    public var value: DBusValue

    /// Creates an entry.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// An `a{sv}` dictionary (the shape of MPRIS metadata and property maps) from `entries`, in order.
    public static func stringVariantDictionary(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// For an `a{sv}` (or any string-keyed dictionary), the value for `key`, unwrapped from its variant.
    public subscript(key: String) -> DBusValue? {
        guard case .dictionary(.string, _, let entries) = self else { return nil }
        return entries.first { $0.key == .string(key) }?.value.unwrapped
    }
}
