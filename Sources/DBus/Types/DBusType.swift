/// A complete D-Bus type, the Swift form of one complete type in a signature.
///
/// A type is what a signature describes; it belongs to a Swift type or a declaration, never to a
/// value, so an empty `as` still knows it is an array of strings.
public indirect enum DBusType: Hashable, Sendable, CustomStringConvertible {
    /// `y`, unsigned 8-bit integer.
    case byte
    /// `b`, boolean.
    case boolean
    /// `n`, signed 16-bit integer.
    case int16
    /// `q`, unsigned 16-bit integer.
    case uint16
    /// `i`, signed 32-bit integer.
    case int32
    /// `u`, unsigned 32-bit integer.
    case uint32
    /// `x`, signed 64-bit integer.
    case int64
    /// `t`, unsigned 64-bit integer.
    case uint64
    /// `d`, IEEE 754 double.
    case double
    /// `s`, UTF-8 string.
    case string
    /// `o`, object path.
    case objectPath
    /// `g`, signature.
    case signature
    /// `h`, Unix file descriptor.
    case unixFD
    /// `v`, variant: a value carrying its own type.
    case variant
    /// `aT`, array of elements of one type.
    case array(DBusType)
    /// `a{KV}`, dictionary with a basic key type.
    case dictionary(key: DBusType, value: DBusType)
    /// `(T…)`, structure of one or more fields.
    case structure([DBusType])

    /// The type's signature string, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    public var description: String { signature }

    /// Whether the type is basic (fixed or string-like), as dictionary keys must be.
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    /// Parses one complete type, e.g. `a{sv}`; throws `InvalidSignature` otherwise.
    public init(parsing signature: String) throws(DBusError) {
        let types = try DBusSignature(validating: signature).types
        guard types.count == 1 else {
            throw DBusError(.invalidSignature, "\"\(signature)\" is not a single complete type")
        }
        self = types[0]
    }

    /// How deeply arrays and structures nest inside this type (libdbus allows 32 of each).
    var containerDepth: (arrays: Int, structures: Int) {
        switch self {
        case .array(let element):
            let inner = element.containerDepth
            return (inner.arrays + 1, inner.structures)
        case .dictionary(let key, let value):
            let inner = value.containerDepth
            return (max(key.containerDepth.arrays, inner.arrays) + 1, inner.structures + 1)
        case .structure(let fields):
            let depths = fields.map(\.containerDepth)
            return (depths.map(\.arrays).max() ?? 0, (depths.map(\.structures).max() ?? 0) + 1)
        default:
            return (0, 0)
        }
    }
}
