public import FoundationEssentials

/// A Pomodoro session as a state machine: `cycles` focus blocks with short breaks between them
/// and a long break after the last, then it ends. Times are monotonic seconds (any origin).
/// Every transition returns the actions the clock service carries out.
public struct Pomodoro: Sendable, Hashable {
    /// Lengths and count.
    public struct Settings: Sendable, Hashable {
        /// Seconds of focus per block.
        public var work: TimeInterval = 25 * 60
        /// Seconds of each break between blocks.
        public var shortBreak: TimeInterval = 5 * 60
        /// Seconds of the break after the last block.
        public var longBreak: TimeInterval = 15 * 60
        /// Focus blocks in the session.
        public var cycles = 4

        /// The classic 25/5/15 × 4.
        public init() {}

        /// Whether the lengths and count make sense.
        public var isValid: Bool {
            [work, shortBreak, longBreak].allSatisfy { $0.isFinite && $0 >= 1 && $0 <= ClockDuration.maximum }
                && (1...100).contains(cycles)
        }
    }

    /// Where the session is.
    public enum Phase: Sendable, Hashable {
        /// Focus block `n` (from 1).
        case focus(Int)
        /// The break after focus block `n`.
        case shortBreak(Int)
        /// The break after the last block.
        case longBreak

        /// `focus`, `short-break`, `long-break`: what the bus shows.
        public var key: String {
            switch self {
            case .focus: "focus"
            case .shortBreak: "short-break"
            case .longBreak: "long-break"
            }
        }
    }

    /// What the owner must do.
    public enum Action: Sendable, Hashable {
        /// Play the background music.
        case playMusic
        /// Pause it.
        case pauseMusic
        /// Ring the bell over whatever plays.
        case ringBell
        /// Post a notification.
        case notify(summary: String, body: String)
        /// The phase (or paused state) changed: republish.
        case phaseChanged
        /// The session is over.
        case finished
    }

    /// The lengths and count.
    public let settings: Settings
    /// The current phase.
    public private(set) var phase: Phase
    /// When the phase ends, while running.
    public private(set) var phaseEnd: TimeInterval
    /// Seconds left in the phase while paused; nil while running.
    public private(set) var pausedRemaining: TimeInterval?

    /// Starts focus block 1 at `now`.
    public static func start(_ settings: Settings, now: TimeInterval) -> (Pomodoro, [Action]) {
        let session = Pomodoro(settings: settings, phase: .focus(1), phaseEnd: now + settings.work, pausedRemaining: nil)
        return (session, [.playMusic, .notify(summary: "Focus 1 of \(settings.cycles)",
                                              body: "\(ClockDuration.spoken(settings.work)) focus block"), .phaseChanged])
    }

    /// Whether the timer is paused.
    public var isPaused: Bool { pausedRemaining != nil }

    /// Seconds left in the phase.
    public func remaining(at now: TimeInterval) -> TimeInterval {
        pausedRemaining ?? max(0, phaseEnd - now)
    }

    /// Moves to the next phase when the current one is over at `now`.
    public mutating func advance(now: TimeInterval) -> [Action] {
        // A wake-up a hair early (timer rounding) still ends the phase.
        guard !isPaused, now >= phaseEnd - 0.05 else { return [] }
        let cycles = settings.cycles
        switch phase {
        case .focus(let n) where n < cycles:
            phase = .shortBreak(n)
            phaseEnd = now + settings.shortBreak
            return [.pauseMusic, .ringBell,
                    .notify(summary: "Focus \(n) of \(cycles) done — \(ClockDuration.spoken(settings.shortBreak)) break",
                            body: "Focus \(n + 1) of \(cycles) starts after the break"), .phaseChanged]
        case .focus:
            phase = .longBreak
            phaseEnd = now + settings.longBreak
            return [.pauseMusic, .ringBell,
                    .notify(summary: "Focus \(cycles) of \(cycles) done — \(ClockDuration.spoken(settings.longBreak)) break",
                            body: "Last block done: take a long break"), .phaseChanged]
        case .shortBreak(let n):
            phase = .focus(n + 1)
            phaseEnd = now + settings.work
            return [.playMusic, .ringBell,
                    .notify(summary: "Break over — focus \(n + 1) of \(cycles)",
                            body: "\(ClockDuration.spoken(settings.work)) focus block"), .phaseChanged]
        case .longBreak:
            return [.ringBell, .notify(summary: "Pomodoro done", body: "\(cycles) focus blocks completed"), .finished]
        }
    }

    /// Pauses the timer (and the music, in a focus block).
    public mutating func pause(now: TimeInterval) -> [Action] {
        guard !isPaused else { return [] }
        pausedRemaining = max(0, phaseEnd - now)
        if case .focus = phase { return [.pauseMusic, .phaseChanged] }
        return [.phaseChanged]
    }

    /// Resumes the timer (and the music, in a focus block).
    public mutating func resume(now: TimeInterval) -> [Action] {
        guard let left = pausedRemaining else { return [] }
        pausedRemaining = nil
        phaseEnd = now + left
        if case .focus = phase { return [.playMusic, .phaseChanged] }
        return [.phaseChanged]
    }

    /// The next instant the owner must wake: the phase end, or the next minute boundary of the
    /// remaining time (the display shows whole minutes, so it changes only there); nil while
    /// paused.
    public func nextWakeUp(after now: TimeInterval) -> TimeInterval? {
        guard !isPaused else { return nil }
        let left = phaseEnd - now
        guard left > 60 else { return phaseEnd }
        let minutesShown = (left / 60).rounded(.up)
        return phaseEnd - (minutesShown - 1) * 60
    }

    /// `Focus 2 of 4`, `Short break`, `Long break`.
    public var phaseTitle: String {
        switch phase {
        case .focus(let n): "Focus \(n) of \(settings.cycles)"
        case .shortBreak: "Short break"
        case .longBreak: "Long break"
        }
    }

    /// What Metadata's title shows: `Focus 2 of 4 · 24 min left`, `Paused — Short break · 3 min left`.
    public func title(at now: TimeInterval) -> String {
        let minutes = Int((remaining(at: now) / 60).rounded(.up))
        let text = "\(phaseTitle) · \(max(1, minutes)) min left"
        return isPaused ? "Paused — " + text : text
    }
}
