extension DBusConnection {
    /// Exports `interfaces` at `path`, replacing same-named interfaces already exported there.
    /// Peer, Introspectable and Properties are provided for every exported path.
    public func export(_ interfaces: [DBusInterface], at path: ObjectPath) throws(DBusError) {
        // An array, not a Set: a Set of InterfaceName had the runtime look up its Hashable
        // conformance (a scan of every conformance in the process) at the first export, which
        // comes before a service's bus name.
        let reserved: [InterfaceName] = [.properties, .introspectable, .peer]
        for interface in interfaces where reserved.contains(interface.name) {
            throw DBusError(.invalidArgs, "\(interface.name) is provided by the connection itself")
        }
        state.withLock { $0.objects.add(interfaces, at: path) }
    }

    /// Stops exporting the object at `path`.
    public func unexport(_ path: ObjectPath) {
        state.withLock { $0.objects.remove(path: path) }
    }

    /// Stops exporting one interface of the object at `path`.
    public func unexport(interface: InterfaceName, at path: ObjectPath) {
        state.withLock { $0.objects.remove(interface: interface, at: path) }
    }

    /// Emits signal `member` of `interface` from `path`, to everyone subscribed or to `destination`.
    public func emitSignal(
        _ member: MemberName, interface: InterfaceName, path: ObjectPath,
        arguments: [DBusValue] = [], destination: BusName? = nil
    ) throws(DBusError) {
        let message = try Message.signal(path: path, interface: interface, member: member)
        if let destination { message.setDestination(destination) }
        try message.append(arguments)
        try send(message)
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` exactly as given: one signal for
    /// `interface` with `changed` values (in order) and `invalidated` names.
    public func emitPropertiesChanged(
        interface: InterfaceName, path: ObjectPath,
        changed: [(MemberName, DBusValue)], invalidated: [MemberName] = []
    ) throws(DBusError) {
        let changedMap = DBusValue.dictionary(
            key: .string, value: .variant,
            changed.map { DBusDictionaryEntry(key: .string($0.0.rawValue), value: .variant($0.1)) })
        let invalidatedList = DBusValue.array(.string, invalidated.map { .string($0.rawValue) })
        try emitSignal(
            "PropertiesChanged", interface: .properties, path: path,
            arguments: [.string(interface.rawValue), changedMap, invalidatedList])
    }

    /// Announces that the properties `names` of `interface` at `path` changed, following each
    /// property's EmitsChangedSignal policy: `true` sends the current value, `invalidates` sends
    /// the name, `const` and `false` send nothing. Sends one signal, or none if nothing qualifies.
    public func notifyPropertiesChanged(
        _ names: [MemberName], interface: InterfaceName, path: ObjectPath
    ) throws(DBusError) {
        guard let declaration = state.withLock({ $0.objects.interfaces(at: path) })?
            .first(where: { $0.name == interface })
        else { throw DBusError(.unknownInterface, "\(interface) is not exported at \(path)") }
        var changed: [(MemberName, DBusValue)] = []
        var invalidated: [MemberName] = []
        for name in names {
            guard let property = declaration.property(name) else {
                throw DBusError(.unknownProperty, "\(interface) has no property \(name)")
            }
            switch property.emitsChangedSignal {
            case .true:
                do {
                    changed.append((name, try property.getter()))
                } catch {
                    invalidated.append(name)
                }
            case .invalidates:
                invalidated.append(name)
            case .const, .false:
                continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        try emitPropertiesChanged(interface: interface, path: path, changed: changed, invalidated: invalidated)
    }
}
