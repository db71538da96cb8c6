public import Timekeeping

/// One alarm: when, how it sounds, and where it is in its life.
public struct Alarm: Codable, Sendable, Hashable, Identifiable {
    /// Where an alarm is in its life.
    public enum Phase: String, Codable, Sendable, Hashable {
        /// Waiting for ``Alarm/nextFire``.
        case scheduled
        /// Sounding now.
        case ringing
        /// Snoozed: rings again at ``Alarm/nextFire``.
        case snoozed
    }

    // `ramp` and `snooze` are stored as seconds (see `init(from:)`).
    private enum CodingKeys: String, CodingKey {
        case id, label, sound, time, repeatRule, ramp, snooze, nextFire, phase
    }

    /// Small and stable: what `linnet cancel ID` takes.
    public var id: UInt32
    /// What the notification and Metadata show.
    public var label: String
    /// A file path, URI or playlist; nil for the built-in tone.
    public var sound: String?
    /// When it is meant to ring, as given.
    public var time: AlarmTime
    /// On which days it repeats (only for wall-clock times).
    public var repeatRule: RepeatRule
    /// How long the volume takes to rise to full.
    public var ramp: Duration
    /// How long a snooze lasts.
    public var snooze: Duration
    /// When it rings next (or rang, while ringing).
    public var nextFire: WallInstant
    /// Where it is in its life.
    public var phase: Phase = .scheduled

    /// Settings an alarm is created with.
    public struct Options: Sendable, Hashable {
        /// See ``Alarm/label``; empty means "Alarm".
        public var label = ""
        /// See ``Alarm/sound``.
        public var sound: String?
        /// See ``Alarm/repeatRule``.
        public var repeatRule = RepeatRule.once
        /// See ``Alarm/ramp``.
        public var ramp: Duration = .seconds(30)
        /// See ``Alarm/snooze``.
        public var snooze: Duration = .seconds(9 * 60)

        /// Default options.
        public init() {}
    }
}

/// What the clock service must do about alarms; ``AlarmBook`` returns these.
public enum AlarmAction: Sendable, Hashable {
    /// Start ringing `alarm`.
    case ring(Alarm)
    /// `alarm` was due at `due` but the machine was off, asleep or linnet not running: report it.
    case missed(Alarm, due: WallInstant)
    /// Stop the sound for alarm `id` (dismissed, snoozed or timed out).
    case silence(UInt32)
    /// The set of alarms changed: save it.
    case save
}

/// Why an alarm request was refused; the D-Bus layer answers InvalidArgs with it, or
/// LimitsExceeded when ``exceedsLimit``.
public struct AlarmError: Error, Equatable, CustomStringConvertible {
    /// What was wrong.
    public let description: String
    /// The request was refused for a cap (too many alarms, too much text), not for its meaning.
    public var exceedsLimit = false

    /// A refusal explained by `description`.
    public init(description: String, exceedsLimit: Bool = false) {
        self.description = description
        self.exceedsLimit = exceedsLimit
    }
}

extension Alarm {
    /// Reads an alarm as saved: `ramp` and `snooze` in seconds, as they always were.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UInt32.self, forKey: .id)
        label = try container.decode(String.self, forKey: .label)
        sound = try container.decodeIfPresent(String.self, forKey: .sound)
        time = try container.decode(AlarmTime.self, forKey: .time)
        repeatRule = try container.decode(RepeatRule.self, forKey: .repeatRule)
        ramp = try Self.decodeSeconds(container, .ramp)
        snooze = try Self.decodeSeconds(container, .snooze)
        nextFire = try container.decode(WallInstant.self, forKey: .nextFire)
        phase = try container.decode(Phase.self, forKey: .phase)
    }

    /// Writes it in the same layout.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(sound, forKey: .sound)
        try container.encode(time, forKey: .time)
        try container.encode(repeatRule, forKey: .repeatRule)
        try container.encode(ramp.inSeconds, forKey: .ramp)
        try container.encode(snooze.inSeconds, forKey: .snooze)
        try container.encode(nextFire, forKey: .nextFire)
        try container.encode(phase, forKey: .phase)
    }

    private static func decodeSeconds(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Duration {
        let seconds = try container.decode(Double.self, forKey: key)
        guard seconds.isFinite, abs(seconds) <= 1e12 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a duration: \(seconds)")
        }
        return .seconds(seconds)
    }
}
