/// Something that happened to a connection as a whole.
public enum DBusConnectionEvent: Sendable, Hashable {
    /// The bus gave this connection ownership of a name (`NameAcquired`).
    case nameAcquired(BusName)
    /// This connection lost a name it owned (`NameLost`).
    case nameLost(BusName)
    /// The connection closed: the bus went away or ``DBusConnection/close()`` was called.
    case disconnected
}

extension DBusConnection {
    /// Calls `handler` on the loop thread for every connection event until the returned token is
    /// passed to ``removeEventHandler(_:)``.
    @discardableResult
    public func onEvent(_ handler: @escaping @Sendable (DBusConnectionEvent) -> Void) -> UInt64 {
        let token = makeToken()
        state.withLock { $0.eventHandlers[token] = handler }
        return token
    }

    /// Stops calling the handler registered under `token`.
    public func removeEventHandler(_ token: UInt64) {
        _ = state.withLock { $0.eventHandlers.removeValue(forKey: token) }
    }

    /// A stream of connection events from now on; it finishes after ``DBusConnectionEvent/disconnected``.
    public func events() -> AsyncStream<DBusConnectionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DBusConnectionEvent.self)
        let token = onEvent { event in
            continuation.yield(event)
            if event == .disconnected { continuation.finish() }
        }
        continuation.onTermination = { [weak self] _ in self?.removeEventHandler(token) }
        if !isConnected {
            continuation.yield(.disconnected)
            continuation.finish()
        }
        return stream
    }

    func report(_ event: DBusConnectionEvent) {
        let handlers = state.withLock { state in
            if event == .disconnected { state.isOpen = false }
            return Array(state.eventHandlers.values)
        }
        for handler in handlers { handler(event) }
    }
}
