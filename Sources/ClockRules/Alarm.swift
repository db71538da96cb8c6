public import FoundationEssentials

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
    /// Seconds over which the volume rises to full.
    public var ramp: TimeInterval
    /// Seconds a snooze lasts.
    public var snooze: TimeInterval
    /// When it rings next (or rang, while ringing).
    public var nextFire: Date
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
        public var ramp: TimeInterval = 30
        /// See ``Alarm/snooze``.
        public var snooze: TimeInterval = 9 * 60

        /// Default options.
        public init() {}
    }
}

/// What the clock service must do about alarms; ``AlarmBook`` returns these.
public enum AlarmAction: Sendable, Hashable {
    /// Start ringing `alarm`.
    case ring(Alarm)
    /// `alarm` was due at `due` but the machine was off, asleep or linnet not running: report it.
    case missed(Alarm, due: Date)
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
