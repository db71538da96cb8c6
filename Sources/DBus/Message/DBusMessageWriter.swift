internal import CDBus

/// Writes values straight into a message that is being built, through libdbus's own iterator,
/// without building a ``DBusValue`` first.
///
/// For replies that are answered often (a panel's GetAll, GetTracksMetadata): a `DBusValue`
/// tree costs an allocation per value and a validation pass over it before libdbus copies it
/// again. Here each value is checked for what libdbus would abort on (a string with NUL or
/// invalid UTF-8) as it is written, and the first problem stops the writing: ``error`` is then
/// set and the message must be discarded, never sent.
///
/// The typed methods can only write a value of the type they name, and every container is
/// opened with the signature of what its closure writes through the typed methods; a closure
/// that writes another type into a container (which libdbus answers with an abort) is a bug of
/// the closure's author, so writers belong to code that knows its types (the DBus and MPRIS
/// modules), never to input.
public struct DBusMessageWriter: ~Copyable {
    let iterator: UnsafeMutablePointer<DBusMessageIter>
    /// The first problem met; once set, nothing more is written.
    public private(set) var error: DBusError?
    init(_ iterator: UnsafeMutablePointer<DBusMessageIter>) {
        self.iterator = iterator
    }

    /// Whether writing may go on.
    public var isWriting: Bool { error == nil }

    /// Records `problem` and stops the writing.
    public mutating func fail(_ problem: DBusError) {
        if error == nil { error = problem }
    }

    private mutating func basic<T>(_ value: T, _ code: Int32) {
        guard error == nil else { return }
        var copy = value
        if withUnsafePointer(to: &copy, { dbus_message_iter_append_basic(iterator, code, $0) }) == 0 {
            fail(DBusError(.noMemory, "out of memory while building a message"))
        }
    }

    /// Appends a `b`.
    public mutating func append(_ value: Bool) { basic(dbus_bool_t(value ? 1 : 0), TypeCode.boolean) }
    /// Appends an `i`.
    public mutating func append(_ value: Int32) { basic(value, TypeCode.int32) }
    /// Appends a `u`.
    public mutating func append(_ value: UInt32) { basic(value, TypeCode.uint32) }
    /// Appends an `x`.
    public mutating func append(_ value: Int64) { basic(value, TypeCode.int64) }
    /// Appends a `d`.
    public mutating func append(_ value: Double) { basic(value, TypeCode.double) }

    /// Appends an `s`; a string with NUL or invalid UTF-8 stops the writing with `InvalidArgs`.
    public mutating func append(_ value: String) {
        guard error == nil else { return }
        guard Self.isPlainASCII(value) || isValid(value, dbus_validate_utf8) else {
            return fail(DBusError(.invalidArgs, "string contains NUL or invalid UTF-8"))
        }
        appendCString(value, TypeCode.string)
    }

    /// Whether `value` is ASCII without NUL, which every UTF-8 validator accepts: one pass over
    /// the bytes, where the C validator needs a C string copy first. Dictionary keys and most
    /// values a panel reads are ASCII.
    private static func isPlainASCII(_ value: String) -> Bool {
        value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 != 0 && $0 < 0x80 }
        } ?? false
    }

    /// Appends an `o` (valid by construction).
    public mutating func append(_ value: ObjectPath) {
        guard error == nil else { return }
        appendCString(value.rawValue, TypeCode.objectPath)
    }

    private mutating func appendCString(_ value: String, _ code: Int32) {
        let written = value.withCString { pointer in
            var cString: UnsafePointer<CChar>? = pointer
            return withUnsafePointer(to: &cString) { dbus_message_iter_append_basic(iterator, code, $0) }
        }
        if written == 0 { fail(DBusError(.noMemory, "out of memory while building a message")) }
    }

    /// Appends any value, validated in full first (the slow path, for values that exist as a
    /// ``DBusValue`` already).
    public mutating func append(_ value: DBusValue) {
        guard error == nil else { return }
        do {
            try value.validate()
        } catch {
            return fail(error)
        }
        if !Message.append(value, to: &iterator.pointee) {
            fail(DBusError(.noMemory, "out of memory while building a message"))
        }
    }

    /// Opens a container of type `code` (`signature`: its contents' signature for arrays and
    /// variants, nil for structures and dictionary entries), lets `body` fill it and closes it.
    private mutating func container(
        _ code: Int32, _ signature: UnsafePointer<CChar>?, _ body: (inout DBusMessageWriter) -> Void
    ) {
        guard error == nil else { return }
        var inner = DBusMessageIter()
        guard dbus_message_iter_open_container(iterator, code, signature, &inner) != 0 else {
            return fail(DBusError(.noMemory, "out of memory while building a message"))
        }
        let problem = withUnsafeMutablePointer(to: &inner) { pointer in
            var writer = DBusMessageWriter(pointer)
            body(&writer)
            return writer.error
        }
        if let problem {
            dbus_message_iter_abandon_container(iterator, &inner)
            return fail(problem)
        }
        if dbus_message_iter_close_container(iterator, &inner) == 0 {
            fail(DBusError(.noMemory, "out of memory while building a message"))
        }
    }

    /// Appends an array whose elements have the signature `element` (e.g. `"s"`, `"{sv}"`);
    /// `body` writes the elements, each of exactly that type.
    public mutating func appendArray(of element: DBusSignatureText, _ body: (inout DBusMessageWriter) -> Void) {
        container(TypeCode.array, element.pointer, body)
    }

    /// Appends a `v` holding one value of type `signature`, which `body` writes.
    public mutating func appendVariant(of signature: DBusSignatureText, _ body: (inout DBusMessageWriter) -> Void) {
        container(TypeCode.variant, signature.pointer, body)
    }

    /// Appends one `{sv}` entry (inside an array of `{sv}`): the key, then a variant of
    /// `signature` that `body` writes.
    public mutating func appendEntry(
        _ key: String, variantOf signature: DBusSignatureText, _ body: (inout DBusMessageWriter) -> Void
    ) {
        container(TypeCode.dictionaryEntry, nil) { entry in
            entry.append(key)
            entry.appendVariant(of: signature, body)
        }
    }

    /// Appends one `{sv}` entry keyed by a member name (a property's, in GetAll): valid names are
    /// ASCII without NUL by construction, so the key is written without the string check.
    public mutating func appendEntry(
        _ key: MemberName, variantOf signature: DBusSignatureText, _ body: (inout DBusMessageWriter) -> Void
    ) {
        container(TypeCode.dictionaryEntry, nil) { entry in
            entry.appendCString(key.rawValue, TypeCode.string)
            entry.appendVariant(of: signature, body)
        }
    }

    /// Appends an `as`.
    public mutating func append(_ strings: [String]) {
        appendArray(of: .string) { array in
            for string in strings where array.isWriting { array.append(string) }
        }
    }
}

/// A complete D-Bus signature kept as a NUL-terminated C string, so containers are opened
/// without converting a Swift string on every call.
public struct DBusSignatureText: @unchecked Sendable {
    // Static storage (a literal) or a buffer owned by `storage` that lives as long as this value.
    private let storage: StorageBox?
    let pointer: UnsafePointer<CChar>

    /// The signature of `type`.
    public init(_ type: DBusType) {
        let box = StorageBox(type.signature)
        storage = box
        pointer = box.pointer
    }

    private init(literal: StaticString) {
        storage = nil
        pointer = UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// `s`
    public static let string = DBusSignatureText(literal: "s")
    /// `o`
    public static let objectPath = DBusSignatureText(literal: "o")
    /// `b`
    public static let boolean = DBusSignatureText(literal: "b")
    /// `i`
    public static let int32 = DBusSignatureText(literal: "i")
    /// `u`
    public static let uint32 = DBusSignatureText(literal: "u")
    /// `x`
    public static let int64 = DBusSignatureText(literal: "x")
    /// `d`
    public static let double = DBusSignatureText(literal: "d")
    /// `as`
    public static let stringArray = DBusSignatureText(literal: "as")
    /// `ao`
    public static let objectPathArray = DBusSignatureText(literal: "ao")
    /// `{sv}`, the entry of an `a{sv}`.
    public static let stringVariantEntry = DBusSignatureText(literal: "{sv}")
    /// `a{sv}`
    public static let stringVariantDictionary = DBusSignatureText(literal: "a{sv}")

    /// Owns a copy of a signature's bytes for the life of the values that point into it.
    private final class StorageBox: @unchecked Sendable {
        let pointer: UnsafePointer<CChar>

        init(_ text: String) {
            let bytes = Array(text.utf8CString)
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            buffer.initialize(from: bytes, count: bytes.count)
            pointer = UnsafePointer(buffer)
        }

        deinit { UnsafeMutablePointer(mutating: pointer).deallocate() }
    }
}

extension Message {
    /// A method return for this call whose body `body` writes; throws the writer's error (the
    /// half-built reply is dropped).
    func makeReturn(writing body: (inout DBusMessageWriter) -> Void) throws(DBusError) -> Message {
        let reply = try makeReturn()
        try reply.appendBody(writing: body)
        return reply
    }

    /// Appends what `body` writes to this message's body; throws the writer's error (the message
    /// is then half built and must be dropped).
    func appendBody(writing body: (inout DBusMessageWriter) -> Void) throws(DBusError) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        let problem = withUnsafeMutablePointer(to: &iterator) { pointer in
            var writer = DBusMessageWriter(pointer)
            body(&writer)
            return writer.error
        }
        if let problem { throw problem }
    }
}
