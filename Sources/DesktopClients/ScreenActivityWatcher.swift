public import DBus
public import Logging
import Synchronization

/// Whether anybody can see the screen: it is off while a screen saver says it is active (the
/// session is locked or blanked: `org.freedesktop.ScreenSaver` or `org.gnome.ScreenSaver`,
/// `GetActive` and `ActiveChanged`) or, where no screen saver answers, while logind says the
/// session is idle or locked (`IdleHint`, `LockedHint` on the system bus). Events only: the
/// services' signals, never a poll. With none of them it reports the screen on, always.
public final class ScreenActivityWatcher: Sendable {
    /// A screen saver service: its name, object and interface.
    struct ScreenSaver: Sendable {
        var name: BusName
        var path: ObjectPath
        var interface: InterfaceName
    }

    static let screenSavers = [
        ScreenSaver(name: "org.freedesktop.ScreenSaver", path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver"),
        ScreenSaver(name: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver", interface: "org.gnome.ScreenSaver"),
    ]

    private struct State {
        /// Each screen saver that answered, by name: whether it is active.
        var screenSaverActive: [String: Bool] = [:]
        /// logind's IdleHint and LockedHint for this session, once it answered.
        var logindHints: [String: Bool]?
        var reported = true
        var listener: (@Sendable (Bool) -> Void)?
        var subscriptions: [DBusSubscription] = []
        var systemBus: DBusConnection?
        var queries: Task<Void, Never>?
    }

    private let session: DBusConnection
    private let systemBusAddress: String
    private let timeout: Duration
    private let logger: Logger
    private let state = Mutex(State())

    /// A watcher asking the screen savers on `session` and, failing them, logind on the bus at
    /// `systemBusAddress`; each question waits at most `timeout`.
    public init(session: DBusConnection, systemBusAddress: String, timeout: Duration = .seconds(2), logger: Logger) {
        self.session = session
        self.systemBusAddress = systemBusAddress
        self.timeout = timeout
        self.logger = logger
    }

    /// Whether the screen is on, as last heard.
    public var isScreenOn: Bool { state.withLock { $0.reported } }

    /// Subscribes to the screen savers' signals, then asks each service for its state, all in the
    /// background: linnet's start does not wait for any of it (the screen counts as on until a
    /// service says otherwise). `listener` hears each change of ``isScreenOn`` on the loop thread.
    public func start(listener: @escaping @Sendable (Bool) -> Void) {
        state.withLock { $0.listener = listener }
        let task = Task { [weak self] in
            guard let self else { return }
            subscribeToScreenSavers()
            let answered = await askScreenSavers()
            if !answered { await followLogind() }
        }
        state.withLock { $0.queries = task }
    }

    /// ActiveChanged from each screen saver, now or once one appears. Blocking round trips to
    /// the bus (AddMatch), made once.
    private func subscribeToScreenSavers() {
        var subscriptions: [DBusSubscription] = []
        for saver in Self.screenSavers {
            let name = saver.name.rawValue
            do {
                // Any path: KDE sends it on /ScreenSaver too.
                subscriptions.append(try session.subscribe(
                    MatchRule(sender: saver.name, interface: saver.interface, member: "ActiveChanged")
                ) { [weak self] signal in
                    guard case .boolean(let active)? = signal.arguments.first else { return }
                    self?.update { $0.screenSaverActive[name] = active }
                })
            } catch {
                logger.debug("cannot follow \(name): \(error.message)")
            }
        }
        for subscription in subscriptions { keep(subscription) }
    }

    /// Keeps `subscription` until ``stop()``; cancels it at once when stop came first.
    private func keep(_ subscription: DBusSubscription) {
        let stopped = state.withLock { state -> Bool in
            guard state.listener != nil else { return true }
            state.subscriptions.append(subscription)
            return false
        }
        if stopped { subscription.cancel() }
    }

    /// Stops listening.
    public func stop() {
        let (subscriptions, task, bus) = state.withLock { state in
            defer {
                state.subscriptions = []
                state.listener = nil
                state.systemBus = nil
            }
            return (state.subscriptions, state.queries, state.systemBus)
        }
        task?.cancel()
        for subscription in subscriptions { subscription.cancel() }
        bus?.close()
    }

    /// The rule: screen savers that answered decide; without any, logind's hint; else on.
    static func screenOn(screenSaversActive: [Bool], logindIdle: Bool?) -> Bool {
        if !screenSaversActive.isEmpty { return !screenSaversActive.contains(true) }
        return !(logindIdle ?? false)
    }

    private func update(_ change: (inout State) -> Void) {
        let (listener, on) = state.withLock { state -> ((@Sendable (Bool) -> Void)?, Bool) in
            change(&state)
            let on = Self.screenOn(
                screenSaversActive: Array(state.screenSaverActive.values), logindIdle: state.logindHints.map { $0.values.contains(true) })
            guard on != state.reported else { return (nil, on) }
            state.reported = on
            return (state.listener, on)
        }
        guard let listener else { return }
        logger.debug("the screen is \(on ? "on" : "off (locked, blank or idle)")")
        // The latest state, not `on`: a change queued from a background answer must not land
        // after a newer one delivered at once on the loop thread.
        session.loop.perform { [weak self] in listener(self?.isScreenOn ?? true) }
    }

    /// Asks every screen saver for its state; true when at least one answered.
    private func askScreenSavers() async -> Bool {
        var answered = false
        for saver in Self.screenSavers {
            do {
                let reply = try await session.call(
                    destination: saver.name, path: saver.path, interface: saver.interface, member: "GetActive", timeout: timeout)
                guard case .boolean(let active)? = reply.first else { continue }
                answered = true
                // A signal that arrived meanwhile is newer than this answer.
                update { state in
                    if state.screenSaverActive[saver.name.rawValue] == nil { state.screenSaverActive[saver.name.rawValue] = active }
                }
            } catch {
                logger.debug("no screen saver at \(saver.name): \(error.message)")
            }
        }
        return answered
    }

    /// Follows this session's IdleHint and LockedHint on logind.
    private func followLogind() async {
        do {
            let bus = try DBusConnection(address: systemBusAddress, loop: session.loop)
            let stopped = state.withLock { state -> Bool in
                guard state.listener != nil else { return true }
                state.systemBus = bus
                return false
            }
            if stopped {
                bus.close()
                return
            }
            let manager = DBusProxy(connection: bus, destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                                    interface: "org.freedesktop.login1.Manager")
            // "auto": the caller's session, or the user's graphical one for a process (a user
            // service) outside any session.
            guard case .objectPath(let path)? = try await manager.call("GetSession", [.string("auto")], timeout: timeout).first else { return }
            let subscription = try bus.subscribe(MatchRule(
                sender: "org.freedesktop.login1", path: path, interface: .properties, member: "PropertiesChanged",
                arguments: [0: "org.freedesktop.login1.Session"])
            ) { [weak self] signal in
                guard signal.arguments.count >= 2, case .dictionary(_, _, let entries) = signal.arguments[1] else { return }
                let changed = Self.hints(entries.map { ($0.key, $0.value) })
                guard !changed.isEmpty else { return }
                self?.update { state in state.logindHints = (state.logindHints ?? [:]).merging(changed) { $1 } }
            }
            keep(subscription)
            let sessionObject = DBusProxy(connection: bus, destination: "org.freedesktop.login1", path: path,
                                          interface: "org.freedesktop.login1.Session")
            let all = try await sessionObject.allProperties()
            let initial = Self.hints(all.compactMap { key, value in (DBusValue.string(key), value) })
            // A signal that arrived meanwhile is newer than these answers.
            update { state in state.logindHints = initial.merging(state.logindHints ?? [:]) { $1 } }
        } catch {
            logger.debug("no screen saver and no logind session to tell whether the screen is on: \(error.message)")
        }
    }

    /// IdleHint and LockedHint among property `entries`.
    private static func hints(_ entries: [(DBusValue, DBusValue)]) -> [String: Bool] {
        var hints: [String: Bool] = [:]
        for (key, value) in entries {
            guard case .string(let name) = key, name == "IdleHint" || name == "LockedHint",
                case .boolean(let flag) = value.unwrapped else { continue }
            hints[name] = flag
        }
        return hints
    }
}
