internal import CDBus

/// libdbus aborts the process on a malformed value passed to its marshalling functions, and the
/// bus daemon disconnects a client that sends an over-deep message; so every value is checked
/// here, in full, before a byte is written.
enum ValueLimits {
    /// D-Bus allows 32 nested arrays and 32 nested structures within one signature.
    static let maximumSignatureNesting = 32
    /// Total container nesting (variants included) that a message may hold.
    static let maximumMessageNesting = 64
    /// The longest signature D-Bus allows, for one type and for a whole message body.
    static let maximumSignatureLength = 255
}

extension DBusValue {
    /// Throws `InvalidArgs` unless the value is well-formed: containers hold elements of their
    /// declared types, dictionary keys are basic, structures are non-empty, strings hold no NUL
    /// and are valid UTF-8, and nesting stays within D-Bus's limits.
    public func validate() throws(DBusError) {
        try validate(depth: 0)
    }

    private func validate(depth: Int) throws(DBusError) {
        guard depth <= ValueLimits.maximumMessageNesting else {
            throw DBusError(.limitsExceeded, "value nested more than \(ValueLimits.maximumMessageNesting) levels deep")
        }
        switch self {
        case .string(let string):
            guard isValid(string, dbus_validate_utf8) else {
                throw DBusError(.invalidArgs, "string contains NUL or invalid UTF-8")
            }
        case .array(let element, let values):
            // The array's own level counts: checking only the element let 33 nested arrays through,
            // and the bus daemon disconnects whoever sends that.
            try Self.validate(type: .array(element))
            for value in values {
                guard value.type == element else { throw typeMismatch(value, expected: element) }
                try value.validate(depth: depth + 1)
            }
        case .dictionary(let key, let valueType, let entries):
            guard key.isBasic else {
                throw DBusError(.invalidArgs, "dictionary key type '\(key)' is not basic")
            }
            try Self.validate(type: .dictionary(key: key, value: valueType))
            for entry in entries {
                guard entry.key.type == key else { throw typeMismatch(entry.key, expected: key) }
                guard entry.value.type == valueType else { throw typeMismatch(entry.value, expected: valueType) }
                try entry.key.validate(depth: depth + 2)
                try entry.value.validate(depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError(.invalidArgs, "a structure needs at least one field") }
            try Self.validate(type: type)
            for field in fields { try field.validate(depth: depth + 1) }
        case .variant(let inner):
            try inner.validate(depth: depth + 1)
        default:
            break
        }
    }

    /// Checks the limits a single type's signature must respect.
    private static func validate(type: DBusType) throws(DBusError) {
        let depth = type.containerDepth
        guard depth.arrays <= ValueLimits.maximumSignatureNesting,
            depth.structures <= ValueLimits.maximumSignatureNesting,
            type.signature.utf8.count <= ValueLimits.maximumSignatureLength
        else { throw DBusError(.limitsExceeded, "type '\(type.signature.prefix(64))…' exceeds D-Bus limits") }
    }
}
