internal import CDBus

/// A D-Bus signature: zero or more complete types (type code `g`), validated by libdbus.
public struct DBusSignature: ValidatedName {
    public let rawValue: String
    /// The complete types this signature lists, in order.
    public let types: [DBusType]

    /// Creates the signature if `rawValue` is a valid D-Bus signature.
    public init?(rawValue: String) {
        guard isValid(rawValue, dbus_signature_validate) else { return nil }
        var parser = SignatureParser(rawValue)
        guard let types = parser.parseAll() else { return nil }
        self.rawValue = rawValue
        self.types = types
    }

    /// The signature listing `types` in order.
    public init(_ types: [DBusType]) {
        rawValue = types.map(\.signature).joined()
        self.types = types
    }

    /// The empty signature.
    public static let empty = DBusSignature([])

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// Recursive-descent parser over a signature that libdbus has already validated.
private struct SignatureParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ signature: String) { bytes = Array(signature.utf8) }

    mutating func parseAll() -> [DBusType]? {
        var types: [DBusType] = []
        while index < bytes.count {
            guard let type = parseOne() else { return nil }
            types.append(type)
        }
        return types
    }

    private mutating func parseOne() -> DBusType? {
        guard index < bytes.count else { return nil }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                index += 1
                guard let key = parseOne(), let value = parseOne(),
                    index < bytes.count, bytes[index] == UInt8(ascii: "}")
                else { return nil }
                index += 1
                return .dictionary(key: key, value: value)
            }
            return parseOne().map(DBusType.array)
        case UInt8(ascii: "("):
            var fields: [DBusType] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                guard let field = parseOne() else { return nil }
                fields.append(field)
            }
            guard index < bytes.count, !fields.isEmpty else { return nil }
            index += 1
            return .structure(fields)
        default:
            return nil
        }
    }
}
