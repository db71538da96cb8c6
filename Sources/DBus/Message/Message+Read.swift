internal import CDBus

extension Message {
    /// Reads the whole body as values. libdbus has validated the message on receipt, so a failure
    /// here means a type this code does not know.
    /// `count` reads only the first that many arguments, leaving the rest undecoded.
    func readArguments(count: Int = .max) throws(DBusError) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
        var values: [DBusValue] = []
        while values.count < count, dbus_message_iter_get_arg_type(&iterator) != TypeCode.invalid {
            values.append(try Self.read(&iterator))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    /// The first `count` arguments that are strings, up to the first that is not; for calls
    /// whose signature has been checked, without building ``DBusValue``s.
    func leadingStrings(count: Int) -> [String] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
        var strings: [String] = []
        strings.reserveCapacity(count)
        while strings.count < count, dbus_message_iter_get_arg_type(&iterator) == TypeCode.string {
            strings.append(Self.readString(&iterator))
            dbus_message_iter_next(&iterator)
        }
        return strings
    }

    /// The first two arguments where they are strings (nil from the first that is not), as
    /// libdbus holds them: valid while this message lives. For calls whose signature has been
    /// checked, read without building a Swift string.
    func leadingStringTexts() -> (UnsafePointer<CChar>?, UnsafePointer<CChar>?) {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0,
              dbus_message_iter_get_arg_type(&iterator) == TypeCode.string else { return (nil, nil) }
        let first: UnsafePointer<CChar>? = Self.readBasic(&iterator, initial: nil)
        guard dbus_message_iter_next(&iterator) != 0,
              dbus_message_iter_get_arg_type(&iterator) == TypeCode.string else { return (first, nil) }
        return (first, Self.readBasic(&iterator, initial: nil))
    }

    private static func readBasic<T>(_ iterator: inout DBusMessageIter, initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
        return value
    }

    private static func readString(_ iterator: inout DBusMessageIter) -> String {
        let pointer: UnsafePointer<CChar>? = readBasic(&iterator, initial: nil)
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// The complete type at `iterator`, from libdbus's signature of it.
    private static func currentType(_ iterator: inout DBusMessageIter) throws(DBusError) -> DBusType {
        guard let signature = dbus_message_iter_get_signature(&iterator) else {
            throw DBusError(.noMemory, "cannot read a signature")
        }
        defer { dbus_free(signature) }
        return try DBusType(parsing: String(cString: signature))
    }

    /// The basic type with type code `code`, or nil for containers and unknown codes.
    private static func basicType(_ code: Int32) -> DBusType? {
        switch code {
        case TypeCode.byte: .byte
        case TypeCode.boolean: .boolean
        case TypeCode.int16: .int16
        case TypeCode.uint16: .uint16
        case TypeCode.int32: .int32
        case TypeCode.uint32: .uint32
        case TypeCode.int64: .int64
        case TypeCode.uint64: .uint64
        case TypeCode.double: .double
        case TypeCode.string: .string
        case TypeCode.objectPath: .objectPath
        case TypeCode.signature: .signature
        case TypeCode.unixFD: .unixFD
        default: nil
        }
    }

    private static func readElements(_ iterator: inout DBusMessageIter) throws(DBusError) -> [DBusValue] {
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&inner) != TypeCode.invalid {
            values.append(try read(&inner))
            dbus_message_iter_next(&inner)
        }
        return values
    }

    private static func read(_ iterator: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        let code = dbus_message_iter_get_arg_type(&iterator)
        switch code {
        case TypeCode.byte: return .byte(readBasic(&iterator, initial: UInt8(0)))
        case TypeCode.boolean: return .boolean(readBasic(&iterator, initial: dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(readBasic(&iterator, initial: Int16(0)))
        case TypeCode.uint16: return .uint16(readBasic(&iterator, initial: UInt16(0)))
        case TypeCode.int32: return .int32(readBasic(&iterator, initial: Int32(0)))
        case TypeCode.uint32: return .uint32(readBasic(&iterator, initial: UInt32(0)))
        case TypeCode.int64: return .int64(readBasic(&iterator, initial: Int64(0)))
        case TypeCode.uint64: return .uint64(readBasic(&iterator, initial: UInt64(0)))
        case TypeCode.double: return .double(readBasic(&iterator, initial: Double(0)))
        case TypeCode.string: return .string(readString(&iterator))
        case TypeCode.objectPath:
            // libdbus validated the body when it loaded the message (a queue's worth of track
            // ids is read this way).
            return .objectPath(ObjectPath(unchecked: readString(&iterator)))
        case TypeCode.signature:
            let text = readString(&iterator)
            guard let signature = DBusSignature(rawValue: text) else {
                throw DBusError(.invalidArgs, "invalid signature in message")
            }
            return .signature(signature)
        case TypeCode.unixFD:
            // libdbus hands out a duplicate that the reader owns.
            return .unixFD(UnixFileDescriptor(taking: readBasic(&iterator, initial: Int32(-1))))
        case TypeCode.array:
            // An array of a basic type (a list of track ids) needs no signature parsed.
            if let element = basicType(dbus_message_iter_get_element_type(&iterator)) {
                return .array(element, try readElements(&iterator))
            }
            let type = try currentType(&iterator)
            switch type {
            case .array(let element):
                return .array(element, try readElements(&iterator))
            case .dictionary(let key, let value):
                var entries: [DBusDictionaryEntry] = []
                for entry in try readElements(&iterator) {
                    guard case .structure(let pair) = entry, pair.count == 2 else {
                        throw DBusError(.invalidArgs, "malformed dictionary entry")
                    }
                    entries.append(DBusDictionaryEntry(key: pair[0], value: pair[1]))
                }
                return .dictionary(key: key, value: value, entries)
            default:
                throw DBusError(.invalidArgs, "unexpected array type '\(type)'")
            }
        case TypeCode.dictionaryEntry:
            // Read as a two-field structure; the enclosing array turns it into an entry.
            return .structure(try readElements(&iterator))
        case TypeCode.structure:
            return .structure(try readElements(&iterator))
        case TypeCode.variant:
            let inner = try readElements(&iterator)
            guard inner.count == 1 else { throw DBusError(.invalidArgs, "malformed variant") }
            return .variant(inner[0])
        default:
            throw DBusError(.invalidArgs, "unsupported type code \(code)")
        }
    }
}
