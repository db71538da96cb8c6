/// Flags for `RequestName`.
public struct NameRequestFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Let a later requester with ``replaceExisting`` take the name from us.
    public static let allowReplacement = NameRequestFlags(rawValue: 1)
    /// Take the name from its owner if that owner allowed replacement.
    public static let replaceExisting = NameRequestFlags(rawValue: 2)
    /// Fail instead of waiting in the queue when the name is taken.
    public static let doNotQueue = NameRequestFlags(rawValue: 4)
}

/// The bus's answer to `RequestName`.
public enum NameRequestReply: UInt32, Sendable {
    /// We now own the name.
    case primaryOwner = 1
    /// The name is taken; we wait in its queue.
    case inQueue = 2
    /// The name is taken and we did not queue.
    case exists = 3
    /// We already owned it.
    case alreadyOwner = 4
}

/// The bus's answer to `ReleaseName`.
public enum NameReleaseReply: UInt32, Sendable {
    /// We no longer own or wait for the name.
    case released = 1
    /// Nobody owns the name.
    case nonExistent = 2
    /// Someone else owns it.
    case notOwner = 3
}

/// A change of a name's owner (`NameOwnerChanged`); nil means no owner.
public struct NameOwnerChange: Sendable, Hashable {
    /// The name whose owner changed.
    public let name: BusName
    /// The previous owner's unique name.
    public let oldOwner: BusName?
    /// The new owner's unique name.
    public let newOwner: BusName?

    /// Describes a change of `name` from `oldOwner` to `newOwner`.
    public init(name: BusName, oldOwner: BusName?, newOwner: BusName?) {
        self.name = name
        self.oldOwner = oldOwner
        self.newOwner = newOwner
    }
}

extension DBusConnection {
    private var busProxy: DBusProxy {
        DBusProxy(connection: self, destination: .bus, path: "/org/freedesktop/DBus", interface: .bus)
    }

    /// Asks the bus for `name` (`RequestName`).
    public func requestName(_ name: BusName, flags: NameRequestFlags = []) throws(DBusError) -> NameRequestReply {
        let reply = try busProxy.callBlocking("RequestName", [.string(name.rawValue), .uint32(flags.rawValue)])
        guard case .uint32(let code)? = reply.first, let result = NameRequestReply(rawValue: code) else {
            throw DBusError(.failed, "unexpected RequestName reply")
        }
        return result
    }

    /// Gives up `name` (`ReleaseName`).
    @discardableResult
    public func releaseName(_ name: BusName) throws(DBusError) -> NameReleaseReply {
        let reply = try busProxy.callBlocking("ReleaseName", [.string(name.rawValue)])
        guard case .uint32(let code)? = reply.first, let result = NameReleaseReply(rawValue: code) else {
            throw DBusError(.failed, "unexpected ReleaseName reply")
        }
        return result
    }

    /// Every name currently on the bus (`ListNames`).
    public func listNames() async throws(DBusError) -> [BusName] {
        try await namesReply(busProxy.call("ListNames"))
    }

    /// Every name the bus could start on demand (`ListActivatableNames`).
    public func listActivatableNames() async throws(DBusError) -> [BusName] {
        try await namesReply(busProxy.call("ListActivatableNames"))
    }

    /// Whether `name` has an owner (`NameHasOwner`).
    public func nameHasOwner(_ name: BusName) async throws(DBusError) -> Bool {
        let reply = try await busProxy.call("NameHasOwner", [.string(name.rawValue)])
        guard case .boolean(let value)? = reply.first else { throw DBusError(.failed, "unexpected NameHasOwner reply") }
        return value
    }

    /// The unique name owning `name` (`GetNameOwner`); throws `NameHasNoOwner` if none.
    public func nameOwner(_ name: BusName) async throws(DBusError) -> BusName {
        let reply = try await busProxy.call("GetNameOwner", [.string(name.rawValue)])
        guard case .string(let owner)? = reply.first, let result = BusName(rawValue: owner) else {
            throw DBusError(.failed, "unexpected GetNameOwner reply")
        }
        return result
    }

    /// Calls `handler` on the loop thread whenever a name's owner changes; `name` limits it to one
    /// name (`arg0`), `namespace`-style filtering is left to the handler.
    public func watchNameOwners(
        _ name: BusName? = nil, handler: @escaping @Sendable (NameOwnerChange) -> Void
    ) throws(DBusError) -> DBusSubscription {
        var rule = MatchRule(sender: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "NameOwnerChanged")
        if let name { rule.arguments[0] = name.rawValue }
        return try subscribe(rule) { signal in
            guard signal.arguments.count == 3,
                case .string(let name) = signal.arguments[0], let busName = BusName(rawValue: name),
                case .string(let old) = signal.arguments[1], case .string(let new) = signal.arguments[2]
            else { return }
            handler(NameOwnerChange(name: busName, oldOwner: BusName(rawValue: old), newOwner: BusName(rawValue: new)))
        }
    }

    private func namesReply(_ reply: [DBusValue]) throws(DBusError) -> [BusName] {
        guard case .array(.string, let values)? = reply.first else { throw DBusError(.failed, "unexpected reply") }
        return values.compactMap { value in
            if case .string(let name) = value { BusName(rawValue: name) } else { nil }
        }
    }
}
