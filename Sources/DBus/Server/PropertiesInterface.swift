extension DBusConnection {
    /// Serves `org.freedesktop.DBus.Properties` (Get, GetAll, Set) from the declarations.
    func handleProperties(
        _ message: Message, member: MemberName, path: ObjectPath, registry: ObjectRegistry
    ) throws(DBusError) {
        guard let interfaces = registry.interfaces(at: path) else {
            throw DBusError(.unknownObject, "No such object path '\(DBusError.excerpt(path.rawValue))'")
        }
        let signature = message.signature
        switch (member.rawValue, signature) {
        case ("Get", "ss"), ("GetAll", "s"), ("Set", "ssv"):
            break
        case ("Get", _), ("GetAll", _), ("Set", _):
            throw DBusError(.invalidArgs, "Wrong signature '\(signature)' for Properties.\(member)")
        default:
            throw DBusError(.unknownMethod, "No such method '\(DBusError.excerpt(member.rawValue))' in interface 'org.freedesktop.DBus.Properties'")
        }
        // Checked before decoding: names longer than any D-Bus name cannot match. Only the
        // names are decoded here; Set's value waits until the property is known to be writable.
        if let problem = message.limitViolation(Self.nameLimits) {
            throw DBusError(.limitsExceeded, "Properties.\(DBusError.excerpt(member.rawValue)): \(problem)")
        }
        // The leading names are strings (the signature says so), read without building values.
        let arguments = message.leadingStrings(count: 2)
        switch (member.rawValue, signature) {
        case ("Get", "ss"):
            let property = try lookUp(arguments, in: interfaces)
            guard property.isReadable else {
                throw DBusError(.accessDenied, "Property '\(property.name)' is not readable")
            }
            if let writer = property.writer {
                guard message.expectsReply else { return }
                if let reply = try? message.makeReturn(writing: { body in
                    body.appendVariant(of: property.variantSignature, writer)
                }) {
                    try? send(reply)
                    return
                }
                // The writer stopped: the getter answers, with its value or its error.
            }
            let value = try readProperty(property)
            sendReply(to: message, result: .success([.variant(value)]), outputs: [.variant])
        case ("GetAll", "s"):
            let name = arguments[0]
            let selected: [DBusInterface]
            if name.isEmpty {
                selected = interfaces
            } else if let found = interfaces.first(where: { $0.name.rawValue == name }) {
                selected = [found]
            } else if [InterfaceName.properties, .introspectable, .peer].contains(where: { $0.rawValue == name }) {
                selected = []
            } else {
                throw DBusError(.unknownInterface, "No such interface '\(DBusError.excerpt(name))' at object path '\(DBusError.excerpt(path.rawValue))'")
            }
            if let reply = Self.writtenReply(to: message, properties: selected) {
                try? send(reply)
                return
            }
            var entries: [DBusDictionaryEntry] = []
            for interface in selected {
                for property in interface.properties where property.isReadable {
                    // One failing getter must not hide every other property from a panel.
                    guard let value = try? readProperty(property) else { continue }
                    entries.append(DBusDictionaryEntry(key: .string(property.name.rawValue), value: .variant(value)))
                }
            }
            sendReply(
                to: message, result: .success([.dictionary(key: .string, value: .variant, entries)]),
                outputs: [.dictionary(key: .string, value: .variant)])
        case ("Set", "ssv"):
            let property = try lookUp(arguments, in: interfaces)
            guard property.access != .read, let setter = property.setter else {
                throw DBusError(.propertyReadOnly, "Property '\(property.name)' is read-only")
            }
            // A value larger than this cannot be a sensible property value: refused before it
            // is decoded.
            if let problem = message.limitViolation([nil, nil, Self.setValueLimit]) {
                throw DBusError(.limitsExceeded, "Properties.Set: \(problem)")
            }
            guard let received = try message.readArguments().last else { throw DBusError(.invalidArgs, "expected 'ssv'") }
            let value = received.unwrappedOnce
            guard value.type == property.type else {
                throw DBusError(.invalidArgs, "Property '\(property.name)' has type '\(property.type)', not '\(value.type)'")
            }
            do {
                try setter(value)
            } catch let error as DBusError {
                throw error
            } catch {
                throw DBusError(.failed, String(describing: error))
            }
            sendReply(to: message, result: .success([]), outputs: [])
        default:
            // Unreachable: the signature and member were checked above.
            throw DBusError(.unknownMethod, "No such method in interface 'org.freedesktop.DBus.Properties'")
        }
    }

    /// Limits of the interface and property names of Get (`ss`), GetAll (`s`) and Set (`ssv`):
    /// a D-Bus name's 255 bytes.
    static let nameLimits: [DBusArgumentLimit?] = [.string(maxBytes: 255), .string(maxBytes: 255)]
    /// The limit of a value to Set: strings of at most 8 KiB, at most 256 elements per array,
    /// 1024 values in all.
    static let setValueLimit = DBusArgumentLimit(maxStringBytes: 8192, maxElements: 256, maxValues: 1024)

    /// GetAll's reply written straight from the properties' writers, when every readable one
    /// has a writer and all of them wrote; nil sends the caller down the getters' path (which
    /// skips a failing getter, as a panel needs). No reply expected: nothing to build, nor sent.
    private static func writtenReply(to call: Message, properties interfaces: [DBusInterface]) -> Message? {
        guard interfaces.allSatisfy(\.writesAllReadable) else { return nil }
        guard call.expectsReply else { return nil }
        return try? call.makeReturn { body in
            body.appendArray(of: .stringVariantEntry) { map in
                for interface in interfaces {
                    for property in interface.properties where property.isReadable {
                        guard map.isWriting, let writer = property.writer else { return }
                        map.appendEntry(property.name.rawValue, variantOf: property.variantSignature, writer)
                    }
                }
            }
        }
    }

    private func lookUp(_ arguments: [String], in interfaces: [DBusInterface]) throws(DBusError) -> DBusProperty {
        let (interfaceName, propertyName) = (arguments[0], arguments[1])
        let candidates: [DBusInterface]
        if interfaceName.isEmpty {
            candidates = interfaces
        } else {
            guard let interface = interfaces.first(where: { $0.name.rawValue == interfaceName }) else {
                throw DBusError(.unknownInterface, "No such interface '\(DBusError.excerpt(interfaceName))'")
            }
            candidates = [interface]
        }
        for interface in candidates {
            if let property = interface.properties.first(where: { $0.name.rawValue == propertyName }) {
                return property
            }
        }
        throw DBusError(.unknownProperty, "No such property '\(DBusError.excerpt(propertyName))'")
    }

    private func readProperty(_ property: DBusProperty) throws(DBusError) -> DBusValue {
        let value: DBusValue
        do {
            value = try property.getter()
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError(.failed, String(describing: error))
        }
        guard value.type == property.type else {
            throw DBusError(.failed, "Property '\(property.name)' produced '\(value.type)' where '\(property.type)' was declared")
        }
        return value
    }
}

extension DBusValue {
    /// The value inside one level of variant.
    var unwrappedOnce: DBusValue {
        if case .variant(let inner) = self { return inner }
        return self
    }
}
