extension DBusConnection {
    /// Calls a method and hands the reply to `completion` on the loop thread, in the order the
    /// connection dispatches what it receives: signal handlers have run for every signal the
    /// peer sent before its reply, and for none it sent after. A client that reads a value and
    /// follows its changes uses this to tell stale signals from new ones.
    public func call(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<[DBusValue], DBusError>) -> Void
    ) {
        do {
            let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
            try message.append(arguments)
            sendWithReply(message, timeout: timeout, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }
}
