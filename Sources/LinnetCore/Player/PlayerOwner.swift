import DesktopClients
import LibraryFormats
import Logging
import MPRIS
import Playback
import PlayerCore

/// The player machine and the state of carrying out its effects. Lives on the loop thread
/// only (``PlayerController`` holds it in a `LoopBound`), so nothing here needs a lock.
final class PlayerOwner {
    private(set) var machine: PlayerMachine
    let engine: any PlaybackEngine
    let desktop: DesktopServices
    let logger: Logger
    let saver: SessionSaver
    /// Answers the machine's requests to the clock features.
    var clockHandler: (@Sendable (ClockRequest) -> Void)?
    /// Called when a client asks the player to quit.
    var quitHandler: (@Sendable () -> Void)?
    /// Told, with the effects, after effects that may move the playback clock or change the
    /// track (the lyrics follower re-arms its one timer from there).
    var playbackObserver: (([PlayerEffect]) -> Void)?
    /// The controller, for the MPRIS server, the scanner and inputs from callbacks.
    private(set) weak var player: PlayerController?
    /// Inputs that arrived while effects were being carried out.
    private var backlog: [PlayerInput] = []
    private var isHandling = false
    /// The effects just carried out published a whole new track list (the queue was replaced).
    var replacedTrackList = false
    /// User commands that came before the machine's start, handled right after it; nil once
    /// started. linnet takes its bus name before it knows what to play, so the `Play` that
    /// D-Bus-activated it (or a media key pressed meanwhile) must act on the queue that follows,
    /// not on the empty player. At most ``maximumCommandsBeforeStart`` are kept.
    private var commandsBeforeStart: [PlayerInput]? = []
    static let maximumCommandsBeforeStart = 256

    init(machine: PlayerMachine, engine: any PlaybackEngine, desktop: DesktopServices, logger: Logger, saver: SessionSaver) {
        self.machine = machine
        self.engine = engine
        self.desktop = desktop
        self.logger = logger
        self.saver = saver
    }

    func attach(player: PlayerController) {
        self.player = player
    }

    /// Handles `input` and carries out its effects, then any input those effects fed back, in
    /// order. Returns the refusal of `input` itself, if it was refused and handled at once.
    @discardableResult
    func send(_ input: PlayerInput) -> PlayerRefusal? {
        if let waiting = commandsBeforeStart {
            switch input {
            case .command:
                if waiting.count < Self.maximumCommandsBeforeStart { commandsBeforeStart = waiting + [input] }
                return nil
            case .start:
                commandsBeforeStart = nil
                let refusal = send(input)
                for command in waiting { send(command) }
                return refusal
            default:
                break
            }
        }
        guard !isHandling else {
            backlog.append(input)
            return nil
        }
        isHandling = true
        defer { isHandling = false }
        let queuedBefore = machine.queue.count
        let refusal = perform(machine.handle(input))
        // Iterative, never recursive: a chain of inputs feeding inputs cannot grow the stack.
        while !backlog.isEmpty {
            _ = perform(machine.handle(backlog.removeFirst()))
        }
        reportQueueRelease(queuedBefore: queuedBefore)
        return refusal
    }

    /// Tells ``HeapTrim`` how many entries' memory the inputs just handled released: a whole
    /// queue replaced frees the old entries and the new queue's transient inputs, a bulk edit
    /// the entries it removed or the arrays it was given.
    private func reportQueueRelease(queuedBefore: Int) {
        let queued = machine.queue.count
        let released = replacedTrackList ? max(queuedBefore, queued) : abs(queued - queuedBefore)
        replacedTrackList = false
        HeapTrim.afterRelease(ofEntries: released)
    }

    /// The session as it would be saved now: stream credentials are kept in memory for the
    /// engine but never written down, so saved URIs have none (a resumed stream that needs them
    /// must be given again).
    func savedSession() -> SavedSession {
        var queue = machine.queue
        if queue.contains(where: { URICredentials.present(in: $0.uri) }) {
            queue = queue.rewritingURIs(URICredentials.removed(from:))
        }
        return SavedSession(queue: queue, position: currentPosition(), volume: machine.volume, rate: machine.rate)
    }

    /// Where playback is, asking the engine only when the machine cannot tell.
    func currentPosition() -> Duration {
        machine.position { engine.position().map { .microseconds($0) } }
    }
}
