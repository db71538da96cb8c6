public import DesktopClients
public import ClockRules
public import EventLoop
public import FoundationEssentials
import Logging
import PlayerCore
public import Timekeeping

/// How the clock features are set up.
public struct ClockConfiguration: Sendable {
    /// Where alarms are kept (`$XDG_STATE_HOME/linnet/alarms.json`).
    public var alarmsFile: URL
    /// Where the built-in tones are written (`$XDG_CACHE_HOME/linnet/sounds`).
    public var soundsDirectory: String
    /// An unanswered alarm stops after this long.
    public var ringLimit: Duration = .seconds(600)
    /// The user's home, for `~` in sound and music paths.
    public var home: String
    /// The wall clock's zone; read again whenever the clock is set.
    public var timeZone: @Sendable () -> any ZoneRules = { LocalTimeZone.current }

    /// A configuration keeping alarms in `alarmsFile` and tones in `soundsDirectory`. `home` is
    /// a parameter, not a property default: the default reads the password database, which a
    /// caller that knows the home (the daemon, before its bus name) need not wait for.
    public init(alarmsFile: URL, soundsDirectory: String, home: String = URL.homeDirectory.path) {
        self.alarmsFile = alarmsFile
        self.soundsDirectory = soundsDirectory
        self.home = home
    }
}

/// Something the clock features announce on the bus.
public enum ClockEvent: Sendable {
    /// An alarm started ringing.
    case alarmRinging(Alarm)
    /// An alarm was missed (machine off or asleep, linnet not running).
    case alarmMissed(Alarm, due: WallInstant)
    /// The Pomodoro changed phase (or paused, resumed, ended: `phase` is "" once it ended).
    case pomodoroPhaseChanged(phase: String, title: String)
    /// The sleep timer paused the music.
    case sleepTimerFired
    /// The sleep timer was set or cleared (its remaining time is not signalled continuously).
    case sleepTimerChanged
}

/// Alarms, the sleep timer and the Pomodoro: the pure values of this folder, owned and carried
/// out. Every deadline is one wake-up armed on the injected ``SchedulingClock`` for the next
/// thing due (a wall-clock timer for alarms, awake-time wake-ups for the ring limit, the sleep
/// timer and Pomodoro); nothing polls.
public final class ClockService: Sendable {
    struct Ringing {
        var id: UInt32
        var limitTimer: (any ScheduledWake)?
    }

    struct State {
        var book = AlarmBook()
        var ringing: Ringing?
        var sleep: SleepTimer?
        var sleepTimer: (any ScheduledWake)?
        var pomodoro: Pomodoro?
        var bell: String?
        var pomodoroTimer: (any ScheduledWake)?
        var inhibiting = false
    }

    /// Everything that changes. Reachable only on the loop thread: the bus handlers, the timers
    /// and the player's requests all run there, so each check and the act on it are one step.
    final class Confined {
        var state = State()
        var wallTimer: (any WallTimer)?
        var zoneWatcher: TimeZoneWatcher?
        /// Whether the time zone could not be watched once already (said once, tried again later).
        var zoneWatchRefused = false
        var eventSink: (@Sendable (ClockEvent) -> Void)?
    }

    let confined: LoopBound<Confined>
    let controller: any ClockPlayerLink
    let effects: EffectsPlayer
    let services: DesktopServices
    let configuration: ClockConfiguration
    let store: StateStore<AlarmBook>
    let logger = Logger(label: "linnet.clock")
    let loop: EventLoop
    /// Alarms follow its wall clock; the sleep timer and Pomodoro count its awake time (they
    /// pause while the machine sleeps). Its wake-ups must run on `loop`'s thread.
    let clock: any SchedulingClock

    /// A clock driving `controller` (music), `effects` (alarms and bells) and the desktop
    /// `services` shared with the player, on `clock` (the system's unless a test gives its own).
    public init(controller: any ClockPlayerLink, effects: EffectsPlayer, services: DesktopServices,
                configuration: ClockConfiguration, loop: EventLoop = .shared, clock: (any SchedulingClock)? = nil) {
        self.controller = controller
        self.effects = effects
        self.services = services
        self.configuration = configuration
        self.loop = loop
        self.clock = clock ?? SystemClock(loop: loop)
        store = StateStore<AlarmBook>(fileURL: configuration.alarmsFile)
        confined = LoopBound(Confined(), loop: loop)
    }

    /// Runs `body` on the clock's state; on the loop thread only.
    func withState<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        try body(&confined.value.state)
    }

    /// Receives what should be announced on the bus.
    public func onEvent(_ sink: @escaping @Sendable (ClockEvent) -> Void) {
        loop.sync { confined.value.eventSink = sink }
    }

    func announce(_ event: ClockEvent) {
        confined.value.eventSink?(event)
    }

    /// Loads the saved alarms. Call it before the player takes its bus name, so a client asking
    /// the moment linnet appears sees them.
    public func loadAlarms() {
        loop.sync { loadAlarmsOnLoop() }
    }

    private func loadAlarmsOnLoop() {
        switch store.load() {
        case .loaded(var book):
            book.recoverAfterRestart()
            withState { $0.book = book }
            logger.info("loaded \(book.alarms.count) alarm(s)")
        case .corrupt(let reason, _):
            logger.warning("the saved alarms were unreadable and were set aside: \(reason)")
        case .missing:
            break
        }
    }

    /// Takes over the MPRIS commands it needs, reports alarms missed while linnet was down and
    /// arms the first deadline. Call it once the player is on the bus.
    public func start() throws {
        try loop.sync { try startOnLoop() }
    }

    private func startOnLoop() throws {
        let timer = try clock.makeWallTimer { [weak self] event in
            self?.wallClockEvent(event)
        }
        confined.value.wallTimer = timer
        controller.onClockRequest { [weak self] request in
            self?.answer(request)
        }
        // Queued, so the caller's start finishes before anything due rings.
        loop.execute { [weak self] in self?.processDueAlarms() }
        if withState({ !$0.book.alarms.isEmpty }) {
            Task.detached(priority: .background) { [weak self] in self?.prepareBuiltInSounds(bell: false) }
        }
    }

    /// Synthesises the built-in alarm tone (and the bell) if the cache lacks them. Called off the
    /// loop when an alarm or Pomodoro is set, so a ring never waits for it and an idle linnet
    /// never spends the time.
    func prepareBuiltInSounds(bell: Bool) {
        let sounds = BuiltInSounds(directory: configuration.soundsDirectory)
        do {
            _ = try sounds.alarmURI()
            if bell { _ = try sounds.bellURI() }
        } catch {
            logger.error("cannot write the built-in sounds: \(error)")
        }
    }

    /// Stops every sound and timer (linnet is exiting); alarms stay saved.
    public func shutdown() {
        loop.sync {
            withState { state in
                state.ringing?.limitTimer?.cancel()
                state.sleepTimer?.cancel()
                state.pomodoroTimer?.cancel()
            }
            confined.value.wallTimer = nil
            confined.value.zoneWatcher = nil
        }
        effects.shutdown()
    }

    var resolver: WallClockResolver { WallClockResolver(timeZone: configuration.timeZone()) }

    private func wallClockEvent(_ event: WallTimerEvent) {
        if event == .clockChanged {
            replan("the wall clock was set")
        } else {
            processDueAlarms()
        }
    }

    /// The clock or the zone changed: times of day are resolved again, then whatever is due
    /// rings (or is reported) and the next deadline is armed.
    func replan(_ reason: String) {
        logger.info("\(reason); re-planning alarms")
        if withState({ !$0.book.alarms.isEmpty }) {
            let actions = withState { $0.book.rearm(now: clock.wallNow, resolver: resolver) }
            perform(actions)
        }
        processDueAlarms()
    }

    /// Arms the wall-clock timer for the next alarm (or an hour before it, to start holding the
    /// sleep inhibitor) and holds or releases the inhibitor.
    func armNextDeadline() {
        let now = clock.wallNow
        let (deadline, ringing) = withState { ($0.book.nextDeadline(now: now), $0.ringing != nil) }
        let window = Duration.seconds(3600)
        let dueSoon = ringing || deadline.map { now.duration(to: $0) <= window } ?? false
        let change = withState { state -> Bool? in
            guard state.inhibiting != dueSoon else { return nil }
            state.inhibiting = dueSoon
            return dueSoon
        }
        if change == true {
            let when = deadline.map { resolver.describe($0, relativeTo: now) } ?? "now"
            services.inhibitor.hold("alarm", explanation: "An alarm is due at \(when)")
        } else if change == false {
            services.inhibitor.release("alarm")
        }
        let wake = deadline.map { now.duration(to: $0) > window ? $0 - window : $0 }
        confined.value.wallTimer?.arm(at: wake)
        watchTimeZone(withState { !$0.book.alarms.isEmpty })
    }

    /// Watches the system time zone while there are alarms (only they are set in local time):
    /// an inotify instance is a per-user resource (128 by default), and every linnet without
    /// alarms held one for nothing.
    private func watchTimeZone(_ needed: Bool) {
        guard needed else {
            confined.value.zoneWatcher = nil
            return
        }
        guard confined.value.zoneWatcher == nil else { return }
        let watcher = TimeZoneWatcher(loop: loop) { [weak self] in self?.replan("the time zone changed") }
        if watcher == nil, !confined.value.zoneWatchRefused {
            confined.value.zoneWatchRefused = true
            logger.info("cannot watch /etc/localtime; a new time zone applies after a restart")
        }
        confined.value.zoneWatcher = watcher
    }
}
