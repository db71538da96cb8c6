extension DBusConnection {
    /// Serves `org.freedesktop.DBus.Properties` (Get, GetAll, Set) from the declarations of the
    /// `interfaces` exported at `path` (nil: nothing is exported there).
    func handleProperties(
        _ message: Message, member: MemberName, path: ObjectPath, interfaces: [DBusInterface]?
    ) throws(DBusError) {
        guard let interfaces else {
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
        // The leading names are strings (the signature says so), compared as libdbus holds them.
        let (interfaceText, propertyText) = message.leadingStringTexts()
        guard let interfaceText else { throw DBusError(.invalidArgs, "expected an interface name") }
        switch (member.rawValue, signature) {
        case ("Get", "ss"):
            let property = try lookUp(interfaceText, propertyText, in: interfaces)
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
            let selected: ArraySlice<DBusInterface>
            if interfaceText.pointee == 0 {
                selected = interfaces[...]
            } else if let index = interfaces.firstIndex(where: { $0.name.isSame(as: interfaceText) }) {
                selected = interfaces[index...index]
            } else if InterfaceName.properties.isSame(as: interfaceText) || InterfaceName.introspectable.isSame(as: interfaceText)
                        || InterfaceName.peer.isSame(as: interfaceText) {
                selected = []
            } else {
                let name = String(cString: interfaceText)
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
            let property = try lookUp(interfaceText, propertyText, in: interfaces)
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
    /// The declarations are read in place (indices, not copies): each copy of a property cost
    /// its fields' retains and releases on every call.
    private static func writtenReply(to call: Message, properties interfaces: ArraySlice<DBusInterface>) -> Message? {
        for index in interfaces.indices
        where interfaces[index].propertiesWriter == nil && !interfaces[index].writesAllReadable {
            return nil
        }
        guard call.expectsReply else { return nil }
        if interfaces.count == 1, let reusable = interfaces[interfaces.startIndex].propertiesWriter?.reusable,
           let snapshot = reusable.snapshot() {
            return reusable.reply(to: call, for: snapshot)
        }
        return try? call.makeReturn { body in
            body.appendArray(of: .stringVariantEntry) { map in
                for interface in interfaces.indices where map.isWriting {
                    if let writeAll = interfaces[interface].propertiesWriter {
                        writeAll.write(&map)
                        continue
                    }
                    let properties = interfaces[interface].properties
                    for index in properties.indices where properties[index].isReadable {
                        guard map.isWriting, let writer = properties[index].writer else { return }
                        map.appendEntry(properties[index].name, variantOf: properties[index].variantSignature, writer)
                    }
                }
            }
        }
    }

    /// The property Get or Set names: `interfaceText` (empty: any interface) and `propertyText`,
    /// as libdbus holds them.
    private func lookUp(
        _ interfaceText: UnsafePointer<CChar>, _ propertyText: UnsafePointer<CChar>?, in interfaces: [DBusInterface]
    ) throws(DBusError) -> DBusProperty {
        guard let propertyText else { throw DBusError(.invalidArgs, "expected a property name") }
        let candidates: ArraySlice<DBusInterface>
        if interfaceText.pointee == 0 {
            candidates = interfaces[...]
        } else {
            guard let index = interfaces.firstIndex(where: { $0.name.isSame(as: interfaceText) }) else {
                throw DBusError(.unknownInterface, "No such interface '\(DBusError.excerpt(String(cString: interfaceText)))'")
            }
            candidates = interfaces[index...index]
        }
        for interface in candidates.indices {
            let properties = candidates[interface].properties
            if let index = properties.firstIndex(where: { $0.name.isSame(as: propertyText) }) {
                return properties[index]
            }
        }
        throw DBusError(.unknownProperty, "No such property '\(DBusError.excerpt(String(cString: propertyText)))'")
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
