public import DBus
public import Logging
import Synchronization

/// Applies the focus policy to the other MPRIS players on the session bus.
///
/// It follows every `org.mpris.MediaPlayer2.*` name (ListNames at start, NameOwnerChanged
/// after) and each player's PlaybackStatus and Volume (PropertiesChanged), never acting on
/// names starting with `org.mpris.MediaPlayer2.linnet` or owned by its own connection.
/// Requests and bus events are handled one at a time, in order, by one worker; calls to other
/// players carry a short timeout, so a player that vanishes or never answers delays nothing by
/// more than that.
public final class AudioFocusCoordinator: AudioFocusInterrupting {
    private let connection: DBusConnection
    private let settings: DesktopSettings
    private let logger: Logger
    private let currentPolicy: Mutex<FocusPolicy>
    private let interruptions: InterruptionRelay
    private let commands: AsyncStream<FocusCommand>.Continuation
    private let subscriptions = Mutex<[DBusSubscription]>([])
    /// The worker and what it reads, until ``start()`` runs it (taken once).
    private let unstartedWorker: Mutex<(FocusWorker, AsyncStream<FocusCommand>)?>

    /// A coordinator on `connection` following `settings` (policy, duck level, resume window,
    /// call timeout). Call ``start()`` to begin watching the bus and handling requests (those
    /// made before wait for it, in order). With a `journal`, every change
    /// to another player is saved there before it is made, and ``start()`` first undoes what a
    /// linnet that did not exit cleanly left changed.
    public init(connection: DBusConnection, settings: DesktopSettings, logger: Logger,
                journal: (any FocusJournalStoring)? = nil) {
        self.connection = connection
        self.settings = settings
        self.logger = logger
        currentPolicy = Mutex(settings.focusPolicy)
        let (stream, continuation) = AsyncStream.makeStream(of: FocusCommand.self, bufferingPolicy: .unbounded)
        commands = continuation
        let relay = InterruptionRelay(logger: logger)
        interruptions = relay
        let worker = FocusWorker(
            connection: connection, settings: settings, logger: logger, commands: continuation, journal: journal)
        unstartedWorker = Mutex((worker, stream))
    }

    deinit {
        commands.finish()
        for subscription in subscriptions.withLock({ $0 }) { subscription.cancel() }
    }

    /// Subscribes to name and property changes, then looks at the players already on the bus.
    /// Failing to subscribe (a closed connection) is logged; focus then does nothing.
    public func start() {
        // The worker's task starts here, not in init: the daemon makes the coordinator before
        // its bus name and starts it after, and a task made before the name started Swift's
        // thread pool then. Requests made meanwhile wait in the stream, in order.
        if let (worker, stream) = unstartedWorker.withLock({ $0.take() }) {
            let relay = interruptions
            Task.detached {
                await worker.run(stream) { relay.send($0) }
            }
        }
        let commands = self.commands
        do {
            let names = try connection.watchNameOwners { change in
                guard change.name.rawValue.hasPrefix(MPRISPeer.namePrefix) else { return }
                commands.yield(.nameOwnerChanged(change))
            }
            let properties = try connection.subscribe(
                MatchRule(
                    path: MPRISPeer.path, interface: .properties, member: "PropertiesChanged",
                    arguments: [0: MPRISPeer.playerInterface.rawValue])
            ) { signal in
                guard let sender = signal.sender, signal.arguments.count >= 2 else { return }
                commands.yield(.propertiesChanged(sender: sender, changed: MPRISPeer.properties(in: signal.arguments[1])))
            }
            subscriptions.withLock { $0 = [names, properties] }
        } catch {
            logger.warning("cannot follow other players (\(error.message)); audio focus is off")
            return
        }
        commands.yield(.discover)
    }

    /// The policy for music; see ``AudioFocusing/policy``.
    public var policy: FocusPolicy { currentPolicy.withLock { $0 } }

    /// Changes the policy from the next acquire.
    public func setPolicy(_ policy: FocusPolicy) {
        currentPolicy.withLock { $0 = policy }
    }

    /// Pauses or ducks the other playing players as `purpose` and the policy say; see
    /// ``AudioFocusing/acquire(_:)``.
    public func acquire(_ purpose: FocusPurpose) {
        commands.yield(.acquire(purpose, FocusEffect(purpose: purpose, policy: policy)))
    }

    /// Gives `purpose` up; restores the players once nothing held needs them changed.
    public func release(_ purpose: FocusPurpose) {
        commands.yield(.release(purpose))
    }

    /// Calls `handler` when linnet should give way to another player, or may resume.
    public func onInterruption(_ handler: @escaping @Sendable (FocusInterruption) -> Void) {
        interruptions.handler.withLock { $0 = handler }
    }

    /// The other players followed now, by bus name, with their PlaybackStatus (after every
    /// request and bus event received so far); for diagnostics and tests.
    public func players() async -> [String: String] {
        await withCheckedContinuation { continuation in
            commands.yield(.report(continuation))
        }
    }

    /// The player linnet is giving way to and would resume after, if any (after every request
    /// and bus event received so far); for diagnostics and tests.
    public func givingWayTo() async -> String? {
        await withCheckedContinuation { continuation in
            commands.yield(.reportYield(continuation))
        }
    }

    /// Waits until every request and bus event received so far has been handled.
    public func settle() async {
        await withCheckedContinuation { continuation in
            commands.yield(.barrier(continuation))
        }
    }
}

/// Hands the worker's interruptions to whoever listens now.
private final class InterruptionRelay: Sendable {
    let handler = Mutex<(@Sendable (FocusInterruption) -> Void)?>(nil)
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func send(_ interruption: FocusInterruption) {
        logger.info("audio focus: \(interruption)")
        handler.withLock { $0 }?(interruption)
    }
}

/// What the worker handles, in order.
public enum FocusCommand: Sendable {
    case acquire(FocusPurpose, FocusEffect)
    case release(FocusPurpose)
    case discover
    case nameOwnerChanged(NameOwnerChange)
    case propertiesChanged(sender: BusName, changed: [String: DBusValue])
    /// A player's properties, read after it appeared (`initial`: it was on the bus when the
    /// coordinator started).
    case fetched(name: BusName, owner: BusName, properties: [String: DBusValue], initial: Bool)
    /// The resume window of the yield numbered `token` ended.
    case resumeWindowEnded(token: UInt64)
    case barrier(CheckedContinuation<Void, Never>)
    case report(CheckedContinuation<[String: String], Never>)
    case reportYield(CheckedContinuation<String?, Never>)
}
