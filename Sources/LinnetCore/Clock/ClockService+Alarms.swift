import DesktopClients
public import ClockRules
import EventLoop
import FoundationEssentials
import PlayerCore
import Timekeeping

extension ClockService {
    /// Adds an alarm at `timeText` (see ``AlarmTime/parse(_:now:timeZone:)``); `sound` must
    /// already be a playable URI or nil. Throws with a message for the user.
    public func addAlarm(_ timeText: String, options: Alarm.Options) throws(AlarmError) -> Alarm {
        // From any thread (AddAlarm's handler resolves its sound off the loop first).
        try loop.sync { Result { () throws(AlarmError) in try addAlarmOnLoop(timeText, options: options) } }.get()
    }

    private func addAlarmOnLoop(_ timeText: String, options: Alarm.Options) throws(AlarmError) -> Alarm {
        let now = clock.wallNow
        let resolver = self.resolver
        let time: AlarmTime
        do {
            time = try AlarmTime.parse(timeText, now: now, timeZone: resolver.timeZone)
        } catch {
            throw AlarmError(description: error.description)
        }
        let alarm = try withState { state throws(AlarmError) in
            try state.book.add(time, options: options, now: now, resolver: resolver)
        }
        logger.info("alarm \(alarm.id) \"\(alarm.label)\" set for \(resolver.describe(alarm.nextFire, relativeTo: now)) (\(alarm.repeatRule))")
        perform([.save])
        return alarm
    }

    /// Every alarm, soonest first.
    public var alarms: [Alarm] {
        withState { $0.book.alarms }.sorted { $0.nextFire < $1.nextFire }
    }

    /// Removes alarm `id`.
    public func cancelAlarm(_ id: UInt32) throws(AlarmError) {
        let actions = try withState { state throws(AlarmError) in try state.book.cancel(id, now: clock.wallNow) }
        logger.info("alarm \(id) cancelled")
        perform(actions)
    }

    /// The alarm ringing now.
    public var ringingAlarm: Alarm? { withState { $0.book.ringing } }

    /// Stops the ringing alarm (Stop, the notification's Stop, or the ring limit).
    public func dismissRinging() {
        let actions = withState { state -> [AlarmAction] in
            guard let id = state.ringing?.id else { return [] }
            return state.book.dismiss(id, now: clock.wallNow, resolver: resolver)
        }
        perform(actions)
    }

    /// Snoozes the ringing alarm (Next, or the notification's Snooze).
    public func snoozeRinging() {
        let (actions, snoozed) = withState { state -> ([AlarmAction], Alarm?) in
            guard let id = state.ringing?.id else { return ([], nil) }
            return (state.book.snooze(id, now: clock.wallNow), state.book.alarm(id))
        }
        if let snoozed {
            logger.info("alarm \(snoozed.id) snoozed until \(resolver.describe(snoozed.nextFire, relativeTo: clock.wallNow))")
        }
        perform(actions)
    }

    /// Rings or reports whatever is due, then arms the next deadline.
    func processDueAlarms() {
        // With no alarms nothing is due, and the zone (whose database costs memory) is not read.
        if withState({ !$0.book.alarms.isEmpty }) {
            let actions = withState { $0.book.fireDue(now: clock.wallNow, resolver: resolver) }
            perform(actions)
        }
        armNextDeadline()
    }

    /// Carries out what the alarm book decided.
    func perform(_ actions: [AlarmAction]) {
        var silenced = false
        for action in actions {
            switch action {
            case .ring(let alarm):
                ring(alarm)
            case .missed(let alarm, let due):
                reportMissed(alarm, due: due)
            case .silence(let id):
                silence(id)
                silenced = true
            case .save:
                // The book as it is now: the writer keeps only the latest of the saves queued.
                let book = withState { $0.book }
                store.saveInBackground({ book }) { [logger] error in
                    logger.error("cannot save the alarms: \(error)")
                }
            }
        }
        // A silenced alarm may have let another one due meanwhile ring, and the inhibitor and
        // timer follow the new next deadline.
        if silenced { processDueAlarms() } else if !actions.isEmpty { armNextDeadline() }
    }

    private func ring(_ alarm: Alarm) {
        logger.notice("alarm \(alarm.id) \"\(alarm.label)\" ringing")
        let limit = configuration.ringLimit
        let timer = clock.wake(at: clock.now + limit) { [weak self] in
            self?.logger.notice("alarm \(alarm.id) unanswered for \(ClockDuration.clock(limit)); stopping it")
            self?.dismissRinging()
        }
        withState { state in
            // A limit timer left from an earlier ring must not cut this one short.
            state.ringing?.limitTimer?.cancel()
            state.ringing = Ringing(id: alarm.id, limitTimer: timer)
        }
        // Alarm focus first: giving up music focus while nothing else is held would hand other
        // players back their sound for a moment.
        services.focus.acquire(.alarm)
        controller.send(.clock(.alarmStarted(AlarmDisplay(id: alarm.id, label: alarm.label, soundURI: soundURI(alarm.sound)))))
        effects.ring(soundURI(alarm.sound), ramp: alarm.ramp)
        let notification = DesktopNotification(
            summary: alarm.label, body: "Alarm — \(resolver.describe(alarm.nextFire, relativeTo: clock.wallNow))",
            actions: [NotificationAction(key: "snooze", label: "Snooze"),
                      NotificationAction(key: "stop", label: "Stop")],
            urgency: .critical, category: "x-linnet.alarm", expireTimeout: 0)
        services.notifier.show(notification, in: "alarm") { [weak self] key in
            guard let self else { return }
            loop.perform {
                switch key {
                case "snooze": self.snoozeRinging()
                case "stop", "default": self.dismissRinging()
                default: break
                }
            }
        }
        announce(.alarmRinging(alarm))
    }

    private func silence(_ id: UInt32) {
        let wasRinging = withState { state -> Bool in
            guard state.ringing?.id == id else { return false }
            state.ringing?.limitTimer?.cancel()
            state.ringing = nil
            return true
        }
        guard wasRinging else { return }
        logger.info("alarm \(id) silenced")
        effects.stop()
        services.notifier.withdraw("alarm")
        controller.send(.clock(.alarmEnded))
        services.focus.release(.alarm)
    }

    private func reportMissed(_ alarm: Alarm, due: WallInstant) {
        let when = resolver.describe(due, relativeTo: clock.wallNow)
        logger.warning("missed alarm \(alarm.id) \"\(alarm.label)\" due at \(when) (linnet was not running or the machine was asleep)")
        services.notifier.show(
            DesktopNotification(summary: "Missed alarm: \(alarm.label)",
                                body: "It was due at \(when) while linnet was not running or the machine was asleep.",
                                category: "x-linnet.alarm"),
            in: "missed-\(alarm.id)", onAction: nil)
        announce(.alarmMissed(alarm, due: due))
    }

    /// The URI to play for an alarm sound (the built-in tone for nil or when it cannot be made).
    func soundURI(_ sound: String?) -> String {
        if let sound { return sound }
        do {
            return try BuiltInSounds(directory: configuration.soundsDirectory).alarmURI()
        } catch {
            logger.error("cannot write the built-in alarm tone: \(error)")
            return "file:///dev/null"
        }
    }

    /// Carries out what the player asks of the clock: the user answered the alarm or the
    /// Pomodoro through a transport command.
    func answer(_ request: ClockRequest) {
        switch request {
        case .snoozeAlarm: snoozeRinging()
        case .dismissAlarm: dismissRinging()
        case .togglePomodoro: togglePomodoro()
        case .setPomodoroPaused(let paused): setPomodoroPaused(paused)
        }
    }
}
