public import DBus
public import Logging
import Synchronization

/// Keeps the machine awake while linnet has a reason to: one suspend inhibitor shared by every
/// reason ("playing", "alarm", …), taken from the desktop portal when there is one
/// (`org.freedesktop.portal.Inhibit`, released by closing its request) and otherwise from logind
/// on the system bus (`Inhibit("sleep", …, "block")`, released by closing the file descriptor it
/// returns). The inhibitor goes a while after the last reason does, so pausing and resuming
/// does not flap it. With neither service available it logs once and carries on.
public final class SleepInhibitor: SleepInhibiting {
    /// What is being held, and how to let it go.
    public enum Handle: Sendable {
        case portal(ObjectPath)
        case logind(UnixFileDescriptor)
        /// Nothing could be taken; nothing to give back.
        case unavailable
    }

    public struct State {
        var reasons: [String: String] = [:]
        /// Reasons are gone but the inhibitor is kept until this task ends.
        var lingering: Task<Void, Never>?
        var handle: Handle?
        /// An acquire or release is under way; `reconcile` runs again when it ends.
        var busy = false
        var systemBus: DBusConnection?
    }

    private let session: DBusConnection
    private let systemBusAddress: String
    private let releaseDelay: Duration
    private let timeout: Duration
    private let logger: Logger
    private let missingService = OnceWarning()
    private let state = Mutex(State())

    /// An inhibitor asking the portal on `session`, else logind on the bus at `systemBusAddress`,
    /// kept `releaseDelay` after the last reason goes; calls wait at most `timeout`.
    public init(session: DBusConnection, systemBusAddress: String, releaseDelay: Duration = .seconds(5),
                timeout: Duration = .seconds(2), logger: Logger) {
        self.session = session
        self.systemBusAddress = systemBusAddress
        self.releaseDelay = releaseDelay
        self.timeout = timeout
        self.logger = logger
    }

    /// Holds the inhibitor for `reason`; the first reason takes it.
    public func hold(_ reason: String, explanation: String) {
        state.withLock { state in
            state.reasons[reason] = explanation
            state.lingering?.cancel()
            state.lingering = nil
        }
        reconcile()
    }

    /// Drops `reason`; the last one going starts the release delay.
    public func release(_ reason: String) {
        let startLingering = state.withLock { state -> Bool in
            guard state.reasons.removeValue(forKey: reason) != nil, state.reasons.isEmpty else { return false }
            return true
        }
        guard startLingering else { return }
        let delay = releaseDelay
        let task = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled, let self else { return }
            self.state.withLock { $0.lingering = nil }
            self.reconcile()
        }
        state.withLock { state in
            // A hold may have come in between: then the linger is moot.
            if state.reasons.isEmpty { state.lingering = task } else { task.cancel() }
        }
    }

    /// Whether an inhibitor (or the attempt at one) is held now.
    public var isHeld: Bool { state.withLock { $0.handle != nil } }

    /// Takes or gives back the inhibitor until it matches what the reasons want.
    private func reconcile() {
        enum Step { case acquire(String), release(Handle) }
        let step = state.withLock { state -> Step? in
            guard !state.busy else { return nil }
            let wanted = !state.reasons.isEmpty || state.lingering != nil
            if wanted, state.handle == nil, let explanation = state.reasons.values.sorted().first {
                state.busy = true
                return .acquire(explanation)
            }
            if !wanted, let handle = state.handle {
                state.busy = true
                state.handle = nil
                return .release(handle)
            }
            return nil
        }
        guard let step else { return }
        Task { [self] in
            switch step {
            case .acquire(let explanation):
                let handle = await acquire(explanation)
                state.withLock {
                    $0.handle = handle
                    $0.busy = false
                }
            case .release(let handle):
                await release(handle)
                state.withLock { $0.busy = false }
            }
            reconcile()
        }
    }

    private func acquire(_ explanation: String) async -> Handle {
        do {
            let reply = try await session.call(
                destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                interface: "org.freedesktop.portal.Inhibit", member: "Inhibit",
                arguments: [.string(""), .uint32(4), .stringVariantDictionary([("reason", .string(explanation))])],
                timeout: timeout)
            if case .objectPath(let request)? = reply.first {
                logger.debug("holding a suspend inhibitor from the desktop portal: \(explanation)")
                return .portal(request)
            }
        } catch {
            logger.debug("no desktop portal inhibitor (\(error.message)); asking logind")
        }
        do {
            let reply = try await systemBus().call(
                destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                interface: "org.freedesktop.login1.Manager", member: "Inhibit",
                arguments: [.string("sleep"), .string("Linnet"), .string(explanation), .string("block")],
                timeout: timeout)
            if case .unixFD(let descriptor)? = reply.first {
                logger.debug("holding a suspend inhibitor from logind: \(explanation)")
                return .logind(descriptor)
            }
            warnOnce("logind answered Inhibit without a file descriptor")
        } catch {
            warnOnce("cannot keep the machine awake: neither the desktop portal nor logind answered (\(error.message))")
        }
        return .unavailable
    }

    private func release(_ handle: Handle) async {
        switch handle {
        case .portal(let request):
            do {
                _ = try await session.call(
                    destination: "org.freedesktop.portal.Desktop", path: request,
                    interface: "org.freedesktop.portal.Request", member: "Close", timeout: timeout)
            } catch {
                logger.debug("closing the portal inhibitor \(request): \(error.message)")
            }
        case .logind:
            // Dropping the last reference closes the descriptor, which is what ends the lock.
            break
        case .unavailable:
            break
        }
        logger.debug("released the suspend inhibitor")
    }

    /// The system bus connection, made on first use and kept.
    private func systemBus() throws(DBusError) -> DBusConnection {
        if let existing = state.withLock({ $0.systemBus }), existing.isConnected { return existing }
        let connection = try DBusConnection(address: systemBusAddress, loop: session.loop)
        state.withLock { $0.systemBus = connection }
        return connection
    }

    private func warnOnce(_ message: String) {
        missingService.log(message, on: logger)
    }

    deinit {
        state.withLock { $0.lingering?.cancel() }
    }
}
