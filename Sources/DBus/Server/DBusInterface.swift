/// An interface an exported object implements: its methods, properties and signals with their
/// annotations. The declaration drives argument checking, `Properties`, PropertiesChanged policy
/// and `Introspect` output alike, so each member is described exactly once.
public struct DBusInterface: Sendable {
    /// The interface name, e.g. `org.mpris.MediaPlayer2.Player`.
    public var name: InterfaceName
    /// Callable methods.
    public var methods: [DBusMethod]
    /// Properties readable (and possibly writable) through `org.freedesktop.DBus.Properties`.
    public var properties: [DBusProperty] {
        didSet { writesAllReadable = Self.writesAllReadable(properties) }
    }
    /// Whether every readable property has a writer, so GetAll can be written straight into its
    /// reply; kept with the properties instead of checked on every call.
    private(set) var writesAllReadable: Bool
    /// Signals the interface may emit (declared for introspection).
    public var signals: [DBusSignalDeclaration]
    /// Interface-level annotations.
    public var annotations: [DBusAnnotation]
    /// Writes GetAll's entries for this interface in one pass, on the loop thread. For
    /// properties read from one state: GetAll then reads it once (one lock, one consistent
    /// snapshot) instead of once per property, and may reuse its last reply while the state
    /// stays put. Nil: each property's writer writes its own entry.
    public var propertiesWriter: DBusPropertiesWriter?

    /// Declares an interface.
    public init(
        name: InterfaceName, methods: [DBusMethod] = [], properties: [DBusProperty] = [],
        signals: [DBusSignalDeclaration] = [], annotations: [DBusAnnotation] = [],
        propertiesWriter: DBusPropertiesWriter? = nil
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.writesAllReadable = Self.writesAllReadable(properties)
        self.signals = signals
        self.annotations = annotations
        self.propertiesWriter = propertiesWriter
    }

    private static func writesAllReadable(_ properties: [DBusProperty]) -> Bool {
        properties.allSatisfy { !$0.isReadable || $0.writer != nil }
    }

    /// The method named `name`, if declared.
    public func method(_ name: MemberName) -> DBusMethod? { methods.first { $0.name == name } }

    /// The property named `name`, if declared.
    public func property(_ name: MemberName) -> DBusProperty? { properties.first { $0.name == name } }
}

/// An `<annotation name="…" value="…"/>` in introspection data.
public struct DBusAnnotation: Sendable, Hashable {
    /// e.g. `org.freedesktop.DBus.Property.EmitsChangedSignal`.
    public var name: String
    /// The annotation's value.
    public var value: String

    /// Creates an annotation.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `org.freedesktop.DBus.Deprecated` = `true`.
    public static let deprecated = DBusAnnotation(name: "org.freedesktop.DBus.Deprecated", value: "true")
    /// `org.freedesktop.DBus.Method.NoReply` = `true`.
    public static let noReply = DBusAnnotation(name: "org.freedesktop.DBus.Method.NoReply", value: "true")
}

/// A named, typed argument of a method or signal.
public struct DBusArgument: Sendable, Hashable {
    /// The argument's name in introspection (optional in D-Bus).
    public var name: String?
    /// The argument's type.
    public var type: DBusType
    /// Argument annotations (a ``limit`` adds its own when introspected).
    public var annotations: [DBusAnnotation]
    /// For a method input: how large the argument may be, checked before it is decoded; nil
    /// for no check beyond libdbus's own message limits.
    public var limit: DBusArgumentLimit?

    /// Declares an argument.
    public init(_ name: String?, _ type: DBusType, limit: DBusArgumentLimit? = nil, annotations: [DBusAnnotation] = []) {
        self.name = name
        self.type = type
        self.limit = limit
        self.annotations = annotations
    }
}

/// A signal as declared in an interface.
public struct DBusSignalDeclaration: Sendable, Hashable {
    /// The signal's name.
    public var name: MemberName
    /// Its arguments.
    public var arguments: [DBusArgument]
    /// Signal annotations.
    public var annotations: [DBusAnnotation]

    /// Declares a signal.
    public init(_ name: MemberName, arguments: [DBusArgument] = [], annotations: [DBusAnnotation] = []) {
        self.name = name
        self.arguments = arguments
        self.annotations = annotations
    }
}
