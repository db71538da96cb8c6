/// An incoming method call as a handler sees it.
public struct DBusMethodCall: Sendable {
    /// The caller's unique name.
    public let sender: BusName?
    /// The object path called.
    public let path: ObjectPath
    /// The interface named by the call (callers may omit it).
    public let interface: InterfaceName?
    /// The method name.
    public let member: MemberName
    /// The arguments, already checked against the method's declared input types; empty for a
    /// ``DBusMethodHandler/writingUndecoded(_:)`` handler, which reads them in place.
    public let arguments: [DBusValue]
    /// The received call, kept only for a handler that reads its arguments in place.
    let message: Message?

    init(sender: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
         arguments: [DBusValue], message: Message? = nil) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.message = message
    }

    /// Decodes argument `index` as `T`.
    public func argument<T: DBusRepresentable>(_ index: Int, as _: T.Type = T.self) throws(DBusError) -> T {
        guard arguments.indices.contains(index) else {
            throw DBusError(.invalidArgs, "missing argument \(index) to \(member)")
        }
        return try T(dbusValue: arguments[index])
    }
}

/// How a method produces its reply.
public enum DBusMethodHandler: Sendable {
    /// Runs on the loop thread and returns the reply values (or throws a ``DBusError``) at once.
    case immediate(@Sendable (DBusMethodCall) throws -> [DBusValue])
    /// Runs on the loop thread and answers later, from any thread, through the ``DBusPendingReply``.
    case deferred(@Sendable (DBusMethodCall, DBusPendingReply) -> Void)
    /// Runs on the loop thread and writes the reply's values straight into the reply message,
    /// building no ``DBusValue``: for calls answered often with large replies. A reply whose
    /// signature is not the declared outputs' is answered `Failed`; a value the writer refuses
    /// (``DBusMessageWriter/fail(_:)``) is answered with that error. Inside a container the
    /// writer must write the types it opened it with (libdbus aborts otherwise).
    case writing(@Sendable (DBusMethodCall, inout DBusMessageWriter) throws -> Void)
    /// ``writing(_:)`` with the arguments left in the received message: the call's
    /// ``DBusMethodCall/arguments`` are empty and the handler reads them in place
    /// (``DBusMethodCall/forEachObjectPath(inArgument:_:)``). For arguments that arrive by the
    /// thousand (track ids), which would otherwise each become a `DBusValue` and a `String`
    /// before the handler looks at them. The signature and the inputs' limits are checked as
    /// for every handler.
    case writingUndecoded(@Sendable (DBusMethodCall, inout DBusMessageWriter) throws -> Void)
}

/// A method an exported interface offers.
public struct DBusMethod: Sendable {
    /// The method name.
    public var name: MemberName
    /// Input arguments; calls with another signature get `InvalidArgs`.
    public var inputs: [DBusArgument] {
        didSet { (inputSignature, inputLimits) = (Self.signature(of: inputs), inputs.map(\.limit)) }
    }
    /// Output arguments; the handler's reply must have these types.
    public var outputs: [DBusArgument] {
        didSet { (outputSignature, outputTypes) = (Self.signature(of: outputs), outputs.map(\.type)) }
    }
    /// Method annotations.
    public var annotations: [DBusAnnotation]
    /// Produces the reply.
    public var handler: DBusMethodHandler

    /// Declares a method whose handler replies at once.
    public init(
        _ name: MemberName, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        annotations: [DBusAnnotation] = [],
        handler: @escaping @Sendable (DBusMethodCall) throws -> [DBusValue]
    ) {
        self.init(name, inputs: inputs, outputs: outputs, annotations: annotations, handler: .immediate(handler))
    }

    /// Declares a method with any kind of handler.
    public init(
        _ name: MemberName, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        annotations: [DBusAnnotation] = [], handler: DBusMethodHandler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.annotations = annotations
        self.handler = handler
        (inputSignature, inputLimits) = (Self.signature(of: inputs), inputs.map(\.limit))
        (outputSignature, outputTypes) = (Self.signature(of: outputs), outputs.map(\.type))
    }

    /// Declares a method whose reply comes from async work; the call is answered when it finishes.
    public static func async(
        _ name: MemberName, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        annotations: [DBusAnnotation] = [],
        handler: @escaping @Sendable (DBusMethodCall) async throws -> [DBusValue]
    ) -> DBusMethod {
        DBusMethod(name, inputs: inputs, outputs: outputs, annotations: annotations, handler: .deferred { call, reply in
            Task {
                do { reply.succeed(try await handler(call)) } catch { reply.fail(error) }
            }
        })
    }

    /// The signature calls must carry (kept, not derived per call).
    private(set) var inputSignature: String
    /// The limits of the inputs, in order.
    private(set) var inputLimits: [DBusArgumentLimit?]
    /// The signature replies carry.
    private(set) var outputSignature: String
    /// The types of the outputs, in order.
    private(set) var outputTypes: [DBusType]

    /// Concatenated by hand: `joined()` runs unspecialised from the standard library and looks
    /// up Array's Collection conformance at run time, a scan of every conformance in the
    /// process, and methods are declared before the bus name.
    private static func signature(of arguments: [DBusArgument]) -> String {
        var signature = ""
        for argument in arguments { signature += argument.type.signature }
        return signature
    }
}
