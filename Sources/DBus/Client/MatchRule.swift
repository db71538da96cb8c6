/// A bus match rule selecting signals (see the D-Bus specification, "Match Rules").
/// The same rule filters locally, so each subscription receives only its own signals.
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    /// The sender's unique or well-known name.
    public var sender: BusName?
    /// The emitting object's exact path.
    public var path: ObjectPath?
    /// The emitting object's path or any path below it.
    public var pathNamespace: ObjectPath?
    /// The signal's interface.
    public var interface: InterfaceName?
    /// The signal's name.
    public var member: MemberName?
    /// Required string values of arguments by index (`arg0`, `arg1`, …).
    public var arguments: [Int: String]

    /// Creates a rule for signals; unspecified fields match anything.
    public init(
        sender: BusName? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
        interface: InterfaceName? = nil, member: MemberName? = nil, arguments: [Int: String] = [:]
    ) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// The rule in the bus's text form, e.g. `type='signal',interface='org.example.I'`.
    public var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) {
            parts.append("arg\(index)='\(Self.escape(value))'")
        }
        return parts.joined(separator: ",")
    }

    /// Match-rule quoting: a single quote cannot appear inside quotes, so it is closed, escaped
    /// and reopened. A plain loop rather than `replacing(_:with:)`: that generic algorithm lives
    /// in _StringProcessing, whose code a player would otherwise map at start for this alone.
    private static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value {
            if character == "'" { escaped += "'\\''" } else { escaped.append(character) }
        }
        return escaped
    }

    /// Whether `signal` satisfies every field but the sender (checked by the caller, which knows
    /// the current owner of a well-known name).
    func matchesIgnoringSender(_ signal: DBusSignal) -> Bool {
        if let path, signal.path != path { return false }
        if let pathNamespace, !signal.path.isDescendant(of: pathNamespace) { return false }
        if let interface, signal.interface != interface { return false }
        if let member, signal.member != member { return false }
        for (index, expected) in arguments {
            guard signal.arguments.indices.contains(index),
                case .string(let actual) = signal.arguments[index], actual == expected
            else { return false }
        }
        return true
    }
}

/// A received signal.
public struct DBusSignal: Sendable {
    /// The sender's unique name.
    public let sender: BusName?
    /// The emitting object.
    public let path: ObjectPath
    /// The signal's interface.
    public let interface: InterfaceName
    /// The signal's name.
    public let member: MemberName
    /// The signal's arguments.
    public let arguments: [DBusValue]
}
