/// Whether and how PropertiesChanged reports a property
/// (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
public enum EmitsChangedSignal: String, Sendable, Hashable {
    /// Changes are sent with the new value.
    case `true`
    /// Changes are announced by name only, without the value.
    case invalidates
    /// The value never changes while the object exists.
    case const
    /// Changes are not signalled.
    case `false`
}

/// A property of an exported interface.
public struct DBusProperty: Sendable {
    /// Who may read and write it.
    public enum Access: String, Sendable, Hashable {
        /// Get only; Set answers `PropertyReadOnly`.
        case read
        /// Set only; Get answers an error.
        case write
        /// Get and Set.
        case readwrite
    }

    /// The property name.
    public var name: MemberName
    /// Its type; Set with another type answers `InvalidArgs`.
    public var type: DBusType {
        didSet { variantSignature = DBusSignatureText(type) }
    }
    /// Readable, writable or both.
    public var access: Access
    /// How changes are signalled.
    public var emitsChangedSignal: EmitsChangedSignal
    /// Further annotations (the EmitsChangedSignal one is generated from ``emitsChangedSignal``).
    public var annotations: [DBusAnnotation]
    /// Reads the current value on the loop thread.
    public var getter: @Sendable () throws -> DBusValue
    /// Applies a new value (already type-checked) on the loop thread.
    public var setter: (@Sendable (DBusValue) throws -> Void)?
    /// Writes the current value, of ``type``, straight into the reply on the loop thread: Get and
    /// GetAll then build no ``DBusValue``. It must write exactly one value of ``type`` (libdbus
    /// aborts on another type inside the variant it is given); when it stops the writer with an
    /// error, the reply is built again from ``getter``, so errors read as they always did.
    public var writer: (@Sendable (inout DBusMessageWriter) -> Void)?
    /// ``type``'s signature, kept for the variant each reply opens.
    private(set) var variantSignature: DBusSignatureText

    /// Declares a property.
    public init(
        _ name: MemberName, type: DBusType, access: Access = .read,
        emitsChangedSignal: EmitsChangedSignal = .true, annotations: [DBusAnnotation] = [],
        get getter: @escaping @Sendable () throws -> DBusValue,
        set setter: (@Sendable (DBusValue) throws -> Void)? = nil,
        write writer: (@Sendable (inout DBusMessageWriter) -> Void)? = nil
    ) {
        self.name = name
        self.type = type
        self.access = access
        self.emitsChangedSignal = emitsChangedSignal
        self.annotations = annotations
        self.getter = getter
        self.setter = setter
        self.writer = writer
        variantSignature = DBusSignatureText(type)
    }

    /// Whether Get is allowed.
    var isReadable: Bool { access != .write }
    /// Whether Set is allowed.
    var isWritable: Bool { access != .read && setter != nil }
}
