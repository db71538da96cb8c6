internal import CDBus

/// Type codes, spelled out because libdbus's DBUS_TYPE_* character macros do not import.
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = Int32(UInt8(ascii: "y"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let int16 = Int32(UInt8(ascii: "n"))
    static let uint16 = Int32(UInt8(ascii: "q"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    static let uint64 = Int32(UInt8(ascii: "t"))
    static let double = Int32(UInt8(ascii: "d"))
    static let string = Int32(UInt8(ascii: "s"))
    static let objectPath = Int32(UInt8(ascii: "o"))
    static let signature = Int32(UInt8(ascii: "g"))
    static let unixFD = Int32(UInt8(ascii: "h"))
    static let array = Int32(UInt8(ascii: "a"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let structure = Int32(UInt8(ascii: "r"))
    static let dictionaryEntry = Int32(UInt8(ascii: "e"))
}

extension Message {
    /// Appends `values` as the message body. Every value is validated first, so a bad value
    /// throws instead of reaching libdbus (which would abort).
    func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try value.validate() }
        // Each value fits, but the body's signature as a whole must too: past 255 bytes libdbus
        // overruns its type writer (it printed "type unknown not a basic type" and crashed the
        // fuzzer's client) instead of failing.
        let bodySignature = signature.utf8.count + values.reduce(0) { $0 + $1.type.signature.utf8.count }
        guard bodySignature <= ValueLimits.maximumSignatureLength else {
            throw DBusError(.limitsExceeded, "a message body signature may hold at most \(ValueLimits.maximumSignatureLength) bytes, not \(bodySignature)")
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        for value in values {
            guard Self.append(value, to: &iterator) else {
                throw DBusError(.noMemory, "out of memory while building a message")
            }
        }
    }

    private static func appendBasic<T>(_ value: T, code: Int32, to iterator: inout DBusMessageIter) -> Bool {
        var copy = value
        return withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iterator, code, $0) } != 0
    }

    private static func appendString(_ string: String, code: Int32, to iterator: inout DBusMessageIter) -> Bool {
        string.withCString { pointer in
            var cString: UnsafePointer<CChar>? = pointer
            return withUnsafePointer(to: &cString) { dbus_message_iter_append_basic(&iterator, code, $0) } != 0
        }
    }

    /// Opens a container, fills it with `body` and closes it, abandoning it on failure.
    private static func appendContainer(
        code: Int32, signature: String?, to iterator: inout DBusMessageIter,
        body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened = if let signature {
            signature.withCString { dbus_message_iter_open_container(&iterator, code, $0, &inner) }
        } else {
            dbus_message_iter_open_container(&iterator, code, nil, &inner)
        }
        guard opened != 0 else { return false }
        guard body(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }

    static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): return appendBasic(v, code: TypeCode.byte, to: &iterator)
        case .boolean(let v): return appendBasic(dbus_bool_t(v ? 1 : 0), code: TypeCode.boolean, to: &iterator)
        case .int16(let v): return appendBasic(v, code: TypeCode.int16, to: &iterator)
        case .uint16(let v): return appendBasic(v, code: TypeCode.uint16, to: &iterator)
        case .int32(let v): return appendBasic(v, code: TypeCode.int32, to: &iterator)
        case .uint32(let v): return appendBasic(v, code: TypeCode.uint32, to: &iterator)
        case .int64(let v): return appendBasic(v, code: TypeCode.int64, to: &iterator)
        case .uint64(let v): return appendBasic(v, code: TypeCode.uint64, to: &iterator)
        case .double(let v): return appendBasic(v, code: TypeCode.double, to: &iterator)
        case .string(let v): return appendString(v, code: TypeCode.string, to: &iterator)
        case .objectPath(let v): return appendString(v.rawValue, code: TypeCode.objectPath, to: &iterator)
        case .signature(let v): return appendString(v.rawValue, code: TypeCode.signature, to: &iterator)
        case .unixFD(let v): return appendBasic(v.rawValue, code: TypeCode.unixFD, to: &iterator)
        case .array(let element, let values):
            return appendContainer(code: TypeCode.array, signature: element.signature, to: &iterator) { inner in
                values.allSatisfy { append($0, to: &inner) }
            }
        case .dictionary(let key, let valueType, let entries):
            let entrySignature = "{" + key.signature + valueType.signature + "}"
            return appendContainer(code: TypeCode.array, signature: entrySignature, to: &iterator) { inner in
                entries.allSatisfy { entry in
                    appendContainer(code: TypeCode.dictionaryEntry, signature: nil, to: &inner) { pair in
                        append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            return appendContainer(code: TypeCode.structure, signature: nil, to: &iterator) { inner in
                fields.allSatisfy { append($0, to: &inner) }
            }
        case .variant(let inner):
            return appendContainer(code: TypeCode.variant, signature: inner.type.signature, to: &iterator) {
                append(inner, to: &$0)
            }
        }
    }
}
