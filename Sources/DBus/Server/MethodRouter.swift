internal import CDBus

extension DBusConnection {
    /// Entry point for every dispatched message (the libdbus filter), on the loop thread.
    func handleIncoming(_ message: Message) -> DBusHandlerResult {
        if message.isSignal {
            handleSignal(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        if message.isMethodCall {
            handleMethodCall(message)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if completeOrphanedReply(message) {
            return DBUS_HANDLER_RESULT_HANDLED
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    /// Routes a method call to an exported object, or answers with the precise error.
    ///
    /// The path and interface are compared as libdbus holds them: a served call (a panel's
    /// GetAll) builds no string for them unless an error message needs one.
    private func handleMethodCall(_ message: Message) {
        guard let pathText = message.pathText, let member = message.member else {
            sendReply(to: message, result: .failure(DBusError(.invalidArgs, "call without path or member")), outputs: [])
            return
        }
        let registry = state.withLock { $0.objects }
        let exported = registry.object(at: pathText)
        let path = exported?.path ?? ObjectPath(unchecked: String(cString: pathText))
        let interfaceText = message.interfaceText
        do throws(DBusError) {
            if let interfaceText {
                if InterfaceName.properties.isSame(as: interfaceText) {
                    try handleProperties(message, member: member, path: path, interfaces: exported?.interfaces)
                    return
                }
                if InterfaceName.introspectable.isSame(as: interfaceText) {
                    try handleIntrospect(message, member: member, path: path, registry: registry)
                    return
                }
            }
            guard let interfaces = exported?.interfaces else {
                if interfaceText == nil, member == "Introspect" {
                    try handleIntrospect(message, member: member, path: path, registry: registry)
                    return
                }
                throw DBusError(.unknownObject, "No such object path '\(DBusError.excerpt(path.rawValue))'")
            }
            let method: DBusMethod
            // The interface the call named, as the declaration spells it (the same string).
            let interfaceName: InterfaceName?
            if let interfaceText {
                guard let interface = interfaces.first(where: { $0.name.isSame(as: interfaceText) }) else {
                    let interfaceName = String(cString: interfaceText)
                    throw DBusError(.unknownInterface, "No such interface '\(DBusError.excerpt(interfaceName))' at object path '\(DBusError.excerpt(path.rawValue))'")
                }
                guard let found = interface.method(member) else {
                    throw DBusError(.unknownMethod, "No such method '\(DBusError.excerpt(member.rawValue))' in interface '\(interface.name)' at object path '\(DBusError.excerpt(path.rawValue))'")
                }
                method = found
                interfaceName = interface.name
            } else {
                guard let found = interfaces.lazy.compactMap({ $0.method(member) }).first else {
                    throw DBusError(.unknownMethod, "No such method '\(DBusError.excerpt(member.rawValue))' at object path '\(DBusError.excerpt(path.rawValue))'")
                }
                method = found
                interfaceName = nil
            }
            let signature = message.signature
            guard signature == method.inputSignature else {
                throw DBusError(.invalidArgs, "Method '\(member)' expects signature '\(method.inputSignature)' but got '\(signature)'")
            }
            // Before anything is decoded: an oversized argument costs no more than its receipt.
            if let problem = message.limitViolation(method.inputLimits) {
                throw DBusError(.limitsExceeded, "\(member): \(problem)")
            }
            if case .writingUndecoded(let handler) = method.handler {
                let call = DBusMethodCall(sender: message.sender, path: path, interface: interfaceName, member: member,
                                          arguments: [], message: message)
                sendWrittenReply(to: message, call: call, method: method, handler: handler)
                return
            }
            let call = DBusMethodCall(
                sender: message.sender, path: path, interface: interfaceName, member: member,
                arguments: try message.readArguments())
            let outputs = method.outputTypes
            switch method.handler {
            case .immediate(let handler):
                let result = Result<[DBusValue], any Error> { try handler(call) }
                sendReply(to: message, result: result, outputs: outputs)
            case .deferred(let handler):
                handler(call, DBusPendingReply(call: message, connection: self, outputs: outputs))
            case .writing(let handler), .writingUndecoded(let handler):
                sendWrittenReply(to: message, call: call, method: method, handler: handler)
            }
        } catch {
            sendReply(to: message, result: .failure(error), outputs: [])
        }
    }

    private func handleIntrospect(
        _ message: Message, member: MemberName, path: ObjectPath, registry: ObjectRegistry
    ) throws(DBusError) {
        guard member == "Introspect" else {
            throw DBusError(.unknownMethod, "No such method '\(DBusError.excerpt(member.rawValue))' in interface 'org.freedesktop.DBus.Introspectable'")
        }
        guard message.signature.isEmpty else {
            throw DBusError(.invalidArgs, "Introspect takes no arguments, got '\(message.signature)'")
        }
        let interfaces = registry.interfaces(at: path)
        let children = registry.childNodes(of: path)
        guard interfaces != nil || !children.isEmpty || path == .root else {
            throw DBusError(.unknownObject, "No such object path '\(DBusError.excerpt(path.rawValue))'")
        }
        let xml = Introspection.document(interfaces: interfaces, children: children)
        sendReply(to: message, result: .success([.string(xml)]), outputs: [.string])
    }

    /// Sends the reply a ``DBusMethodHandler/writing(_:)`` handler writes: its error if it
    /// throws or stops the writer, `Failed` if what it wrote is not the declared outputs.
    private func sendWrittenReply(
        to message: Message, call: DBusMethodCall, method: DBusMethod,
        handler: @Sendable (DBusMethodCall, inout DBusMessageWriter) throws -> Void
    ) {
        var thrown: (any Error)?
        let reply: Message?
        do {
            let built = try message.makeReturn { writer in
                do {
                    try handler(call, &writer)
                } catch {
                    thrown = error
                    writer.fail(DBusError(.failed, "the handler failed"))
                }
            }
            let written = built.signature
            reply = written == method.outputSignature
                ? built
                : message.makeError(DBusError(.failed, "the handler answered '\(written)' where '\(method.outputSignature)' was declared"))
        } catch {
            switch thrown ?? error {
            case let error as DBusError: reply = message.makeError(error)
            case let error: reply = message.makeError(DBusError(.failed, String(describing: error)))
            }
        }
        // Even with no reply expected the handler ran: a method's effect does not depend on it.
        if message.expectsReply, let reply { try? send(reply) }
    }

    /// Sends the reply for `call` unless the caller asked for none. Reply values are checked
    /// against the declared outputs, so a handler bug becomes a `Failed` error, not a crash.
    func sendReply(to call: Message, result: Result<[DBusValue], any Error>, outputs: [DBusType]) {
        guard call.expectsReply else { return }
        let reply: Message?
        switch result {
        case .success(let values):
            if values.map(\.type) != outputs {
                let got = values.map(\.type.signature).joined()
                let expected = outputs.map(\.signature).joined()
                reply = call.makeError(DBusError(.failed, "the handler answered '\(got)' where '\(expected)' was declared"))
            } else {
                do {
                    let built = try call.makeReturn()
                    try built.append(values)
                    reply = built
                } catch {
                    reply = call.makeError(error)
                }
            }
        case .failure(let error as DBusError):
            reply = call.makeError(error)
        case .failure(let error):
            reply = call.makeError(DBusError(.failed, String(describing: error)))
        }
        if let reply { try? send(reply) }
    }
}
