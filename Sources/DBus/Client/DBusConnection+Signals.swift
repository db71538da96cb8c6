import Synchronization

/// A live signal subscription; ``cancel()`` it (or let it be released) to stop receiving.
public final class DBusSubscription: Sendable {
    private weak let connection: DBusConnection?
    private let token: UInt64
    private let rule: MatchRule
    private let cancelled = Atomic<Bool>(false)

    init(connection: DBusConnection, token: UInt64, rule: MatchRule) {
        self.connection = connection
        self.token = token
        self.rule = rule
    }

    /// Stops delivery and removes the match rule from the bus.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        connection?.removeSubscription(token: token, rule: rule)
    }

    deinit { cancel() }
}

/// What the connection keeps per subscription.
struct SignalSubscriptionRecord {
    let rule: MatchRule
    let handler: @Sendable (DBusSignal) -> Void
    /// The unique name owning the rule's well-known sender, tracked through NameOwnerChanged.
    var senderOwner: BusName?
}

extension DBusConnection {
    /// Adds `rule` to the bus and calls `handler` on the loop thread for each matching signal.
    /// The rule is active on the bus when this returns.
    public func subscribe(
        _ rule: MatchRule, handler: @escaping @Sendable (DBusSignal) -> Void
    ) throws(DBusError) -> DBusSubscription {
        let token = makeToken()
        var owner: BusName? = nil
        if let sender = rule.sender, !sender.isUnique, sender != .bus {
            // A signal carries its sender's unique name; to match a well-known sender locally
            // the subscription follows that name's owner.
            owner = try? currentOwner(of: sender)
        }
        state.withLock {
            $0.subscriptions[token] = SignalSubscriptionRecord(rule: rule, handler: handler, senderOwner: owner)
        }
        do {
            try addMatch(rule.description)
            if let sender = rule.sender, !sender.isUnique, sender != .bus {
                try addMatch(Self.ownerChangedRule(for: sender).description)
                // The owner may have changed between the query and the match taking effect.
                let refreshed = try? currentOwner(of: sender)
                state.withLock { $0.subscriptions[token]?.senderOwner = refreshed }
            }
        } catch {
            _ = state.withLock { $0.subscriptions.removeValue(forKey: token) }
            throw error
        }
        return DBusSubscription(connection: self, token: token, rule: rule)
    }

    /// A stream of signals matching `rule`; the subscription ends when the stream is dropped.
    public func signals(matching rule: MatchRule) throws(DBusError) -> AsyncStream<DBusSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: DBusSignal.self)
        let subscription = try subscribe(rule) { continuation.yield($0) }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    func removeSubscription(token: UInt64, rule: MatchRule) {
        _ = state.withLock { $0.subscriptions.removeValue(forKey: token) }
        guard isConnected else { return }
        try? callNoReply(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "RemoveMatch",
            arguments: [.string(rule.description)])
        if let sender = rule.sender, !sender.isUnique, sender != .bus {
            try? callNoReply(
                destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "RemoveMatch",
                arguments: [.string(Self.ownerChangedRule(for: sender).description)])
        }
    }

    private func addMatch(_ rule: String) throws(DBusError) {
        _ = try callBlocking(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "AddMatch",
            arguments: [.string(rule)])
    }

    private func currentOwner(of name: BusName) throws(DBusError) -> BusName? {
        let reply = try callBlocking(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetNameOwner",
            arguments: [.string(name.rawValue)])
        guard case .string(let owner)? = reply.first else { return nil }
        return BusName(rawValue: owner)
    }

    static func ownerChangedRule(for name: BusName) -> MatchRule {
        MatchRule(
            sender: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "NameOwnerChanged",
            arguments: [0: name.rawValue])
    }

    /// Delivers a dispatched signal: connection events first, then every matching subscription.
    func handleSignal(_ message: Message) {
        guard let path = message.path, let interface = message.interface, let member = message.member else { return }
        if interface == "org.freedesktop.DBus.Local", member == "Disconnected" {
            failCallsInFlight()
            report(.disconnected)
            return
        }
        let sender = message.sender
        let fromBus = sender == .bus
        let records = state.withLock { Array($0.subscriptions) }
        guard !records.isEmpty || fromBus else { return }
        guard let arguments = try? message.readArguments() else { return }
        let signal = DBusSignal(sender: sender, path: path, interface: interface, member: member, arguments: arguments)

        if fromBus, interface == .bus {
            handleBusSignal(signal, destination: message.destination)
        }
        for (_, record) in records {
            guard record.rule.matchesIgnoringSender(signal), senderMatches(record, sender) else { continue }
            record.handler(signal)
        }
    }

    private func senderMatches(_ record: SignalSubscriptionRecord, _ sender: BusName?) -> Bool {
        guard let expected = record.rule.sender else { return true }
        if expected.isUnique || expected == .bus { return sender == expected }
        return sender != nil && sender == record.senderOwner
    }

    /// NameAcquired/NameLost become connection events; NameOwnerChanged keeps well-known
    /// senders of subscriptions resolved.
    private func handleBusSignal(_ signal: DBusSignal, destination: BusName?) {
        switch signal.member.rawValue {
        case "NameAcquired", "NameLost":
            guard destination == nil || destination == uniqueName,
                case .string(let text)? = signal.arguments.first, let name = BusName(rawValue: text)
            else { return }
            report(signal.member == "NameAcquired" ? .nameAcquired(name) : .nameLost(name))
        case "NameOwnerChanged":
            guard signal.arguments.count == 3, case .string(let name) = signal.arguments[0],
                case .string(let newOwner) = signal.arguments[2]
            else { return }
            let owner = BusName(rawValue: newOwner)
            state.withLock { state in
                for (token, record) in state.subscriptions where record.rule.sender?.rawValue == name {
                    state.subscriptions[token]?.senderOwner = owner
                }
            }
        default:
            break
        }
    }
}
