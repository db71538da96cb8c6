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
    /// The arguments, already checked against the method's declared input types.
    public let arguments: [DBusValue]

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
}

/// A method an exported interface offers.
public struct DBusMethod: Sendable {
    /// The method name.
    public var name: MemberName
    /// Input arguments; calls with another signature get `InvalidArgs`.
    public var inputs: [DBusArgument]
    /// Output arguments; the handler's reply must have these types.
    public var outputs: [DBusArgument]
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

    /// The signature calls must carry.
    var inputSignature: String { inputs.map(\.type.signature).joined() }
}
