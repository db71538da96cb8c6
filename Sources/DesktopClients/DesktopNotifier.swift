public import DBus
public import Logging
import Synchronization

/// A client of `org.freedesktop.Notifications` (the Desktop Notifications specification).
///
/// Each slot keeps one bubble: a new notification in the slot replaces the previous one through
/// `replaces_id`. Requests run one after another in the order they were made, so a quick
/// second `show` still replaces the first. Buttons are sent only when the server advertises the
/// `actions` capability (asked once, then cached). With no server on the bus every request is
/// logged and dropped.
public final class DesktopNotifier: DesktopNotifying {
    public struct Slot {
        var id: UInt32 = 0
        var onAction: (@Sendable (String) -> Void)?
    }

    public struct State {
        var slots: [String: Slot] = [:]
        var capabilities: Set<String>?
        var subscriptions: [DBusSubscription] = []
        /// The last request queued; the next one waits for it.
        var tail: Task<Void, Never>?
    }

    public static let service: BusName = "org.freedesktop.Notifications"
    public static let path: ObjectPath = "/org/freedesktop/Notifications"
    public static let interface: InterfaceName = "org.freedesktop.Notifications"

    private let connection: DBusConnection
    private let appName: String
    private let desktopEntry: String
    private let timeout: Duration
    private let logger: Logger
    private let missingService = OnceWarning()
    private let state = Mutex(State())

    /// A notifier on `connection` (the session bus) naming itself `appName` and its desktop entry
    /// `desktopEntry`; each call waits at most `timeout` for the server. It follows the server's
    /// signals from the start, or with `subscribing` false from ``subscribe()``.
    public init(connection: DBusConnection, appName: String = "Linnet", desktopEntry: String = DesktopIdentity.applicationID,
                timeout: Duration = .seconds(2), logger: Logger, subscribing: Bool = true) {
        self.connection = connection
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.timeout = timeout
        self.logger = logger
        if subscribing { subscribe() }
    }

    /// Shows `notification` in `slot`, replacing the slot's bubble; see
    /// ``DesktopNotifying/show(_:in:onAction:)``.
    public func show(_ notification: DesktopNotification, in slot: String, onAction: (@Sendable (String) -> Void)?) {
        enqueue { notifier in await notifier.post(notification, in: slot, onAction: onAction) }
    }

    /// Closes the slot's bubble, if any.
    public func withdraw(_ slot: String) {
        enqueue { notifier in await notifier.close(slot) }
    }

    /// Waits until every request made so far has been carried out (or given up on).
    public func settle() async {
        await state.withLock { $0.tail }?.value
    }

    private func enqueue(_ work: @escaping @Sendable (DesktopNotifier) async -> Void) {
        state.withLock { state in
            let previous = state.tail
            state.tail = Task { [self] in
                await previous?.value
                await work(self)
            }
        }
    }

    private func post(_ notification: DesktopNotification, in slot: String, onAction: (@Sendable (String) -> Void)?) async {
        let capabilities = await serverCapabilities()
        let replacing = state.withLock { $0.slots[slot]?.id ?? 0 }
        var actions: [DBusValue] = []
        if capabilities?.contains("actions") == true {
            for action in notification.actions { actions += [.string(action.key), .string(action.label)] }
        }
        var hints: [(String, DBusValue)] = [
            ("urgency", .byte(notification.urgency.rawValue)), ("desktop-entry", .string(desktopEntry)),
        ]
        if let category = notification.category { hints.append(("category", .string(category))) }
        var appIcon = ""
        if let icon = notification.icon {
            if icon.hasPrefix("file://") {
                hints.append(("image-path", .string(icon)))
            } else {
                appIcon = icon
            }
        }
        let arguments: [DBusValue] = [
            .string(appName), .uint32(replacing), .string(appIcon), .string(notification.summary),
            .string(notification.body), .array(.string, actions), .stringVariantDictionary(hints),
            .int32(notification.expireTimeout ?? -1),
        ]
        do {
            let reply = try await connection.call(
                destination: Self.service, path: Self.path, interface: Self.interface, member: "Notify",
                arguments: arguments, timeout: timeout)
            guard case .uint32(let id)? = reply.first else { return }
            state.withLock { $0.slots[slot] = Slot(id: id, onAction: onAction) }
        } catch {
            warnOnce("cannot show a notification: \(error.message)")
        }
    }

    private func close(_ slot: String) async {
        guard let id = state.withLock({ $0.slots.removeValue(forKey: slot)?.id }), id != 0 else { return }
        do {
            _ = try await connection.call(
                destination: Self.service, path: Self.path, interface: Self.interface, member: "CloseNotification",
                arguments: [.uint32(id)], timeout: timeout)
        } catch {
            logger.debug("closing notification \(id): \(error.message)")
        }
    }

    /// The server's capabilities, asked once; nil while no server has answered.
    private func serverCapabilities() async -> Set<String>? {
        if let known = state.withLock({ $0.capabilities }) { return known }
        do {
            let reply = try await connection.call(
                destination: Self.service, path: Self.path, interface: Self.interface, member: "GetCapabilities",
                timeout: timeout)
            let capabilities = Set(try (reply.first ?? .array(.string, [])).decode(as: [String].self))
            state.withLock { $0.capabilities = capabilities }
            return capabilities
        } catch {
            return nil
        }
    }

    /// Listens for ActionInvoked and NotificationClosed from whichever server owns the name,
    /// now or later. Two round trips to the bus, made once, here rather than on the
    /// cooperative pool where a blocking call would hold up other tasks.
    /// Follows the server's ActionInvoked and NotificationClosed signals (blocking round trips to
    /// the bus); once only.
    public func subscribe() {
        guard state.withLock({ $0.subscriptions.isEmpty }) else { return }
        do {
            let invoked = try connection.subscribe(
                MatchRule(sender: Self.service, path: Self.path, interface: Self.interface, member: "ActionInvoked")
            ) { [weak self] signal in
                guard signal.arguments.count == 2, case .uint32(let id) = signal.arguments[0],
                    case .string(let key) = signal.arguments[1]
                else { return }
                self?.actionInvoked(id: id, key: key)
            }
            let closed = try connection.subscribe(
                MatchRule(sender: Self.service, path: Self.path, interface: Self.interface, member: "NotificationClosed")
            ) { [weak self] signal in
                guard case .uint32(let id)? = signal.arguments.first else { return }
                self?.closed(id: id)
            }
            state.withLock { $0.subscriptions = [invoked, closed] }
        } catch {
            logger.debug("cannot follow notification signals: \(error.message)")
        }
    }

    private func actionInvoked(id: UInt32, key: String) {
        let handler = state.withLock { state in state.slots.values.first { $0.id == id }?.onAction }
        handler?(key)
    }

    /// A closed bubble cannot be replaced any more: the slot's next one starts afresh.
    private func closed(id: UInt32) {
        state.withLock { state in
            for (slot, record) in state.slots where record.id == id { state.slots[slot]?.id = 0 }
        }
    }

    private func warnOnce(_ message: String) {
        missingService.log(message, on: logger)
    }

    deinit {
        for subscription in state.withLock({ $0.subscriptions }) { subscription.cancel() }
    }
}
