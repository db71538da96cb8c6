import FoundationEssentials
public import Timekeeping

/// All alarms and the rules for their lives, as a value: every mutation takes `now` and returns
/// the actions an effectful owner carries out. Persisted as is.
public struct AlarmBook: Codable, Sendable, Hashable {
    /// The alarms by id order.
    public private(set) var alarms: [Alarm] = []
    private var lastID: UInt32 = 0
    /// When the alarm ringing now started (or, ringing one that waited, when the wait began).
    private var ringStartedAt: WallInstant?
    /// From the start to the end of the ring just silenced: alarms that came due in it waited
    /// for it and ring next, however long it rang. Used by the next ``fireDue(now:resolver:)``.
    private var waitedDuring: ClosedRange<WallInstant>?

    /// How late an alarm may still ring: later than this it was missed (the machine slept or
    /// linnet was down) and is reported instead of ringing hours late.
    public static let grace: Duration = .seconds(60)

    /// The most alarms a book holds; AddAlarm beyond it is refused. With ``maximumTextBytes``
    /// it bounds `alarms.json` (a few MB at most) whatever a client sends.
    public static let maximumAlarms = 1000
    /// The most bytes of labels and sound URIs all alarms hold together: room for every alarm
    /// with a label of a full 1 KiB.
    public static let maximumTextBytes = 1 << 20

    /// An empty book.
    public init() {}

    /// A book of `alarms` recovered from a damaged file: ids stay as they were, and new ones
    /// continue after the highest. Those beyond the caps are dropped (the file they came from
    /// is kept aside).
    public init(recovered alarms: [Alarm]) {
        var text = 0
        for alarm in alarms where self.alarms.count < Self.maximumAlarms && alarm.id != 0 {
            guard !self.alarms.contains(where: { $0.id == alarm.id }) else { continue }
            text += Self.textBytes(of: alarm)
            guard text <= Self.maximumTextBytes else { break }
            self.alarms.append(alarm)
        }
        lastID = self.alarms.map(\.id).max() ?? 0
    }

    /// What an alarm counts against ``maximumTextBytes``.
    public static func textBytes(of alarm: Alarm) -> Int { alarm.label.utf8.count + (alarm.sound?.utf8.count ?? 0) }

    /// The alarm with `id`.
    public func alarm(_ id: UInt32) -> Alarm? { alarms.first { $0.id == id } }

    /// Adds an alarm at `time`. A repeat rule needs a time of day; a past instant is refused.
    public mutating func add(
        _ time: AlarmTime, options: Alarm.Options, now: WallInstant, resolver: WallClockResolver
    ) throws(AlarmError) -> Alarm {
        let fire: WallInstant
        switch time {
        case .instant(let date):
            guard !options.repeatRule.repeats else {
                throw AlarmError(description: "a repeating alarm needs a time of day such as 07:30, not a date or +duration")
            }
            guard date > now - .seconds(1) else {
                throw AlarmError(description: "that time is in the past")
            }
            fire = date
        case .wallClock(let clock):
            guard let next = resolver.nextFire(of: clock, rule: options.repeatRule, after: now) else {
                throw AlarmError(description: "the repeat rule allows no day")
            }
            fire = next
        }
        guard options.ramp >= .zero, options.ramp <= .seconds(3600), options.snooze > .zero, options.snooze <= .seconds(86_400) else {
            throw AlarmError(description: "ramp must be 0 to 1 h and snooze 1 s to 24 h")
        }
        guard alarms.count < Self.maximumAlarms else {
            throw AlarmError(description: "linnet keeps at most \(Self.maximumAlarms) alarms; cancel some first", exceedsLimit: true)
        }
        let text = options.label.utf8.count + (options.sound?.utf8.count ?? 0)
        guard alarms.reduce(text, { $0 + Self.textBytes(of: $1) }) <= Self.maximumTextBytes else {
            throw AlarmError(
                description: "the alarms' labels and sounds would exceed \(Self.maximumTextBytes / 1024) KiB; cancel some first",
                exceedsLimit: true)
        }
        lastID &+= 1
        let label = options.label.trimmingWhitespace
        let alarm = Alarm(
            id: lastID, label: label.isEmpty ? "Alarm" : label, sound: options.sound, time: time,
            repeatRule: options.repeatRule, ramp: options.ramp, snooze: options.snooze, nextFire: fire)
        alarms.append(alarm)
        return alarm
    }

    /// Removes alarm `id`; silences it if it was ringing. Throws for an unknown id.
    public mutating func cancel(_ id: UInt32, now: WallInstant) throws(AlarmError) -> [AlarmAction] {
        guard let index = alarms.firstIndex(where: { $0.id == id }) else {
            throw AlarmError(description: "no alarm has id \(id) (see `linnet alarms`)")
        }
        let removed = alarms.remove(at: index)
        guard removed.phase == .ringing else { return [.save] }
        endRing(now: now)
        return [.silence(id), .save]
    }

    /// The earliest instant something is due (a scheduled or snoozed alarm) that the clock must
    /// wake for at `now`. While one rings, alarms already due wait for it to end: its end is an
    /// event that handles them, not a deadline (a deadline in the past would fire at once, again
    /// and again, until the ring ends).
    public func nextDeadline(now: WallInstant) -> WallInstant? {
        let waitingForTheRing = ringing != nil
        return alarms.filter { $0.phase != .ringing && !(waitingForTheRing && $0.nextFire <= now) }.map(\.nextFire).min()
    }

    /// The alarm ringing now, if any.
    public var ringing: Alarm? { alarms.first { $0.phase == .ringing } }

    /// Handles everything due at `now`: an alarm due within ``grace`` rings (one at a time: a
    /// second one due meanwhile waits for the first to end), anything older is missed.
    public mutating func fireDue(now: WallInstant, resolver: WallClockResolver) -> [AlarmAction] {
        var actions: [AlarmAction] = []
        for index in alarms.indices.sorted(by: { alarms[$0].nextFire < alarms[$1].nextFire }) {
            let alarm = alarms[index]
            guard alarm.phase != .ringing, alarm.nextFire <= now else { continue }
            let waited = waitedDuring?.contains(alarm.nextFire) ?? false
            if alarm.nextFire.duration(to: now) > Self.grace && !waited {
                actions.append(.missed(alarm, due: alarm.nextFire))
                advanceOrRetire(index, after: now, resolver: resolver)
            } else if ringing == nil {
                alarms[index].phase = .ringing
                // Others that waited with this one keep waiting behind it.
                ringStartedAt = waited ? waitedDuring?.lowerBound : now
                actions.append(.ring(alarms[index]))
            }
        }
        waitedDuring = nil
        if !actions.isEmpty { actions.append(.save) }
        alarms.removeAll { $0.id == 0 }
        return actions
    }

    /// Stop: a one-shot alarm is done, a repeating one waits for its next day.
    public mutating func dismiss(_ id: UInt32, now: WallInstant, resolver: WallClockResolver) -> [AlarmAction] {
        guard let index = alarms.firstIndex(where: { $0.id == id }), alarms[index].phase == .ringing else { return [] }
        endRing(now: now)
        advanceOrRetire(index, after: now, resolver: resolver)
        alarms.removeAll { $0.id == 0 }
        return [.silence(id), .save]
    }

    /// Snooze: rings again after the alarm's snooze time.
    public mutating func snooze(_ id: UInt32, now: WallInstant) -> [AlarmAction] {
        guard let index = alarms.firstIndex(where: { $0.id == id }), alarms[index].phase == .ringing else { return [] }
        endRing(now: now)
        alarms[index].phase = .snoozed
        alarms[index].nextFire = now + alarms[index].snooze
        return [.silence(id), .save]
    }

    /// The wall clock or time zone changed: times of day are re-resolved so they ring at the
    /// local time meant. Instants (and snoozes, which are a duration from when they started)
    /// keep their instant.
    public mutating func rearm(now: WallInstant, resolver: WallClockResolver) -> [AlarmAction] {
        var changed = false
        for index in alarms.indices where alarms[index].phase == .scheduled {
            // One the clock jumped over is left due: fireDue rings or reports it.
            guard case .wallClock(let clock) = alarms[index].time, alarms[index].nextFire > now else { continue }
            guard let next = resolver.nextFire(of: clock, rule: alarms[index].repeatRule, after: now),
                next != alarms[index].nextFire
            else { continue }
            alarms[index].nextFire = next
            changed = true
        }
        return changed ? [.save] : []
    }

    /// After loading: an alarm that was ringing when linnet stopped is due again (and will be
    /// reported as missed if that was long ago).
    public mutating func recoverAfterRestart() {
        for index in alarms.indices where alarms[index].phase == .ringing {
            alarms[index].phase = .scheduled
        }
        ringStartedAt = nil
        waitedDuring = nil
    }

    private mutating func endRing(now: WallInstant) {
        if let start = ringStartedAt { waitedDuring = min(start, now)...now }
        ringStartedAt = nil
    }

    /// Moves a repeating alarm to its next day after `after`; marks a one-shot one for removal
    /// (id 0, removed by the caller once iteration is over).
    private mutating func advanceOrRetire(_ index: Int, after: WallInstant, resolver: WallClockResolver) {
        let alarm = alarms[index]
        if case .wallClock(let clock) = alarm.time, alarm.repeatRule.repeats,
            let next = resolver.nextFire(of: clock, rule: alarm.repeatRule, after: max(after, alarm.nextFire))
        {
            alarms[index].nextFire = next
            alarms[index].phase = .scheduled
        } else {
            alarms[index].id = 0
        }
    }
}
