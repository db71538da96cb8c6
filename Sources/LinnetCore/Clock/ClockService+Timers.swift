import DesktopClients
public import ClockRules
import EventLoop
import FoundationEssentials
import PlayerCore
import Timekeeping

/// The sleep timer and the Pomodoro.
extension ClockService {
    /// Time between volume steps during a sleep-timer fade (the only periodic wake-ups, and
    /// only while fading).
    static let fadeStep = Duration.milliseconds(250)

    // MARK: Sleep timer

    /// Pauses the music after `duration`, fading out over the last `fade`.
    public func setSleepTimer(duration: Duration, fade: Duration) throws(AlarmError) {
        guard duration > .zero, duration <= ClockDuration.maximum else {
            throw AlarmError(description: "the sleep timer needs a duration above zero and under a year")
        }
        guard fade >= .zero else { throw AlarmError(description: "the fade cannot be negative") }
        let timer = SleepTimer(duration: duration, fade: fade, now: clock.now)
        withState { state in
            state.sleepTimer?.cancel()
            state.sleep = timer
        }
        controller.send(.clock(.fade(level: 1)))
        logger.info("sleep timer: pausing in \(ClockDuration.clock(duration)), fading over \(ClockDuration.clock(timer.fade))")
        scheduleSleepTick()
        announce(.sleepTimerChanged)
    }

    /// Cancels the sleep timer and restores the volume.
    public func cancelSleepTimer() {
        let had = withState { state -> Bool in
            state.sleepTimer?.cancel()
            state.sleepTimer = nil
            defer { state.sleep = nil }
            return state.sleep != nil
        }
        guard had else { return }
        controller.send(.clock(.fade(level: 1)))
        logger.info("sleep timer cancelled")
        announce(.sleepTimerChanged)
    }

    /// Time until the sleep timer pauses the music; nil when none is set.
    public var sleepRemaining: Duration? {
        withState { $0.sleep }?.remaining(at: clock.now)
    }

    private func scheduleSleepTick() {
        withState { state in
            state.sleepTimer?.cancel()
            state.sleepTimer = nil
            guard let sleep = state.sleep else { return }
            guard let wake = sleep.nextWakeUp(after: clock.now, step: Self.fadeStep) else { return }
            state.sleepTimer = clock.wake(at: wake) { [weak self] in self?.sleepTick() }
        }
    }

    private func sleepTick() {
        guard let sleep = withState({ $0.sleep }) else { return }
        let now = clock.now
        if now >= sleep.deadline - .milliseconds(5) {
            withState { state in
                state.sleep = nil
                state.sleepTimer = nil
            }
            controller.send(.clock(.pauseMusic))
            // The fade never touched the volume setting: back to it for next time.
            controller.send(.clock(.fade(level: 1)))
            logger.notice("sleep timer: paused the music")
            announce(.sleepTimerFired)
            announce(.sleepTimerChanged)
            return
        }
        controller.send(.clock(.fade(level: sleep.level(at: now))))
        scheduleSleepTick()
    }

    // MARK: Pomodoro

    /// Starts a Pomodoro (replacing one running): `music` (resolved items) replaces the queue;
    /// `bell` is a URI, nil for the built-in one.
    public func startPomodoro(_ settings: Pomodoro.Settings, music: [PlayableItem], bell: String?) throws(AlarmError) {
        guard settings.isValid else {
            throw AlarmError(description: "Pomodoro phases must last 1 s to a year, with 1 to 100 cycles")
        }
        let (session, actions) = Pomodoro.start(settings, now: clock.now)
        withState { state in
            state.pomodoroTimer?.cancel()
            state.pomodoro = session
            state.bell = bell
        }
        logger.info("Pomodoro: \(settings.cycles) × \(ClockDuration.clock(settings.work)) focus, breaks \(ClockDuration.clock(settings.shortBreak))/\(ClockDuration.clock(settings.longBreak))")
        if !music.isEmpty { controller.send(.clock(.replaceQueue(music.map(NewTrack.init)))) }
        perform(actions.filter { !(music.isEmpty == false && $0 == .playMusic) })
    }

    /// Ends the Pomodoro; the music keeps its state.
    public func stopPomodoro() {
        let had = withState { state -> Bool in
            state.pomodoroTimer?.cancel()
            state.pomodoroTimer = nil
            defer { state.pomodoro = nil }
            return state.pomodoro != nil
        }
        guard had else { return }
        logger.info("Pomodoro stopped")
        services.notifier.withdraw("pomodoro")
        refreshOverlay()
        announce(.pomodoroPhaseChanged(phase: "", title: ""))
    }

    /// Pauses or resumes the Pomodoro (timer and music).
    public func togglePomodoro() {
        guard let paused = withState({ $0.pomodoro?.isPaused }) else { return }
        setPomodoroPaused(!paused)
    }

    /// Pauses (true) or resumes (false) the Pomodoro.
    public func setPomodoroPaused(_ paused: Bool) {
        let actions = withState { state -> [Pomodoro.Action] in
            let now = clock.now
            return (paused ? state.pomodoro?.pause(now: now) : state.pomodoro?.resume(now: now)) ?? []
        }
        perform(actions)
    }

    /// The running Pomodoro, if any.
    public var pomodoro: Pomodoro? { withState { $0.pomodoro } }

    private func perform(_ actions: [Pomodoro.Action]) {
        for action in actions {
            switch action {
            case .playMusic:
                // Deferred by the player while an alarm rings.
                controller.send(.clock(.playMusic))
            case .pauseMusic:
                controller.send(.clock(.pauseMusic))
            case .ringBell:
                // An alarm outranks the bell.
                if ringingAlarm == nil { effects.chime(bellURI()) }
            case .notify(let summary, let body):
                services.notifier.show(DesktopNotification(summary: summary, body: body, category: "x-linnet.pomodoro"),
                                       in: "pomodoro", onAction: nil)
            case .phaseChanged:
                if let session = pomodoro {
                    logger.info("Pomodoro: \(session.title(at: clock.now))")
                    announce(.pomodoroPhaseChanged(phase: session.phase.key, title: session.phaseTitle))
                }
            case .finished:
                withState { state in
                    state.pomodoroTimer?.cancel()
                    state.pomodoroTimer = nil
                    state.pomodoro = nil
                }
                controller.send(.clock(.pauseMusic))
                logger.notice("Pomodoro finished")
                announce(.pomodoroPhaseChanged(phase: "", title: ""))
            }
        }
        refreshOverlay()
        schedulePomodoroTick()
    }

    private func bellURI() -> String {
        if let bell = withState({ $0.bell }) { return bell }
        do {
            return try BuiltInSounds(directory: configuration.soundsDirectory).bellURI()
        } catch {
            logger.error("cannot write the built-in bell: \(error)")
            return "file:///dev/null"
        }
    }

    /// Wakes at the phase end or the next minute boundary, whichever is first.
    private func schedulePomodoroTick() {
        withState { state in
            state.pomodoroTimer?.cancel()
            state.pomodoroTimer = nil
            guard let wake = state.pomodoro?.nextWakeUp(after: clock.now) else { return }
            state.pomodoroTimer = clock.wake(at: wake) { [weak self] in self?.pomodoroTick() }
        }
    }

    private func pomodoroTick() {
        let actions = withState { state in state.pomodoro?.advance(now: clock.now) ?? [] }
        perform(actions)
    }

    /// Shows the Pomodoro's phase and time left on MPRIS (nothing when none runs); a ringing
    /// alarm is shown over it by the player.
    private func refreshOverlay() {
        let display = pomodoro.map { PomodoroDisplay(title: $0.title(at: clock.now)) }
        controller.send(.clock(.pomodoro(display)))
    }
}
