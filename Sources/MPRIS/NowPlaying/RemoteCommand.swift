import Synchronization

/// One remote command a desktop can send (play, next, seek, ...), like a command of Apple's
/// remote command center: it is offered to the desktop while ``isEnabled`` and handled by the
/// closures added with ``addHandler(_:)``. Enabling or disabling a command updates the matching
/// MPRIS `Can*` property at once.
public final class RemoteCommand<Argument: Sendable>: Sendable {
    private struct Storage {
        var isEnabled = false
        var handlers: [@Sendable (Argument) -> Void] = []
    }
    private let storage = Mutex(Storage())
    private let changed = Mutex<(@Sendable () -> Void)?>(nil)

    init() {}

    /// Whether the desktop may send this command. Adding a handler enables it.
    public var isEnabled: Bool {
        get { storage.withLock { $0.isEnabled } }
        set {
            storage.withLock { $0.isEnabled = newValue }
            changed.withLock { $0 }?()
        }
    }

    /// Calls `handler` (on the D-Bus loop thread) each time the command arrives, and enables it.
    public func addHandler(_ handler: @escaping @Sendable (Argument) -> Void) {
        storage.withLock {
            $0.handlers.append(handler)
            $0.isEnabled = true
        }
        changed.withLock { $0 }?()
    }

    /// Removes every handler and disables the command.
    public func removeAllHandlers() {
        storage.withLock { $0 = Storage() }
        changed.withLock { $0 }?()
    }

    func onChange(_ action: @escaping @Sendable () -> Void) {
        changed.withLock { $0 = action }
    }

    /// Runs the handlers if enabled; returns whether anything handled it.
    @discardableResult
    func send(_ argument: Argument) -> Bool {
        let handlers = storage.withLock { $0.isEnabled ? $0.handlers : [] }
        handlers.forEach { $0(argument) }
        return !handlers.isEmpty
    }
}

/// Every command a Linux desktop can send a player through MPRIS, each mapped to its method or
/// property.
public final class RemoteCommandCenter: Sendable {
    /// `Play`; enables `CanPlay`.
    public let play = RemoteCommand<Void>()
    /// `Pause`; enables `CanPause`.
    public let pause = RemoteCommand<Void>()
    /// `PlayPause` (what the Play media key sends); falls back to play/pause when it has no handler.
    public let togglePlayPause = RemoteCommand<Void>()
    /// `Stop`.
    public let stop = RemoteCommand<Void>()
    /// `Next`; enables `CanGoNext`.
    public let nextTrack = RemoteCommand<Void>()
    /// `Previous`; enables `CanGoPrevious`.
    public let previousTrack = RemoteCommand<Void>()
    /// `Seek` and `SetPosition`, as the new absolute elapsed time; enables `CanSeek`.
    public let changePlaybackPosition = RemoteCommand<Duration>()
    /// `Rate`, clamped to ``supportedRates``.
    public let changePlaybackRate = RemoteCommand<Double>()
    /// `LoopStatus`.
    public let changeRepeatMode = RemoteCommand<LoopStatus>()
    /// `Shuffle`.
    public let changeShuffleMode = RemoteCommand<Bool>()
    /// `Volume` (linear; 0 and above).
    public let changeVolume = RemoteCommand<Double>()
    /// `OpenUri`.
    public let openURI = RemoteCommand<String>()

    /// The rates ``changePlaybackRate`` accepts (`MinimumRate`…`MaximumRate`).
    public let supportedRates: ClosedRange<Double>

    init(supportedRates: ClosedRange<Double>) {
        self.supportedRates = supportedRates
    }

    func onAnyChange(_ action: @escaping @Sendable () -> Void) {
        play.onChange(action)
        pause.onChange(action)
        togglePlayPause.onChange(action)
        nextTrack.onChange(action)
        previousTrack.onChange(action)
        changePlaybackPosition.onChange(action)
    }
}
