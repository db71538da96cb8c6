import ClockRules
import DesktopClients
import EventLoop
import Foundation
import LinnetCore
import PlayerCore
import PlayerTestKit
import Synchronization
import TestSupport
import Timekeeping

/// The real clock service on a ``ManualClock``: its state on a loop of its own, the player
/// replaced by a recorder of the inputs it is sent, the alarm and bell sounds on a scripted
/// engine, notifications and the inhibitor recorded. No bus, no GStreamer, no sleeps: time moves
/// only when a test advances it.
final class ClockRig: Sendable {
    let loop = EventLoop(name: "test.clock")
    let clock: ManualClock
    let player = RecordingPlayerLink()
    let sounds = ScriptedEngine()
    let notifier = RecordingNotifier()
    let inhibitor = RecordingInhibitor()
    let service: ClockService
    private let scratch: ScratchDirectory
    private let announced = Announcements()

    /// A service whose wall clock starts at `wall` in UTC.
    init(wall: WallInstant = WallInstant(secondsSinceEpoch: 1_795_341_600)) throws {
        scratch = try ScratchDirectory()
        clock = ManualClock(wall: wall, loop: loop)
        var configuration = ClockConfiguration(
            alarmsFile: URL(fileURLWithPath: scratch.path("alarms.json")), soundsDirectory: scratch.path("sounds"))
        configuration.timeZone = { TimeZone(identifier: "UTC")! }
        configuration.ringLimit = .seconds(600)
        var services = DesktopServices.inert
        services.notifier = notifier
        services.inhibitor = inhibitor
        service = ClockService(
            controller: player, effects: EffectsPlayer(engine: sounds, loop: loop), services: services,
            configuration: configuration, loop: loop, clock: clock)
        service.onEvent { [announced] event in announced.append(Self.describe(event)) }
        try service.start()
        // start() queues its first look at what is due behind the caller.
        loop.sync {}
    }

    /// Ends the service and its loop.
    func stop() {
        service.shutdown()
        loop.stop()
    }

    /// What the service announced on the bus, as `ringing 1`, `missed 1`, `pomodoro short-break`,
    /// `sleep fired`, `sleep changed`.
    var events: [String] { announced.all }

    /// The clock inputs the player was sent, in order.
    var clockInputs: [ClockInput] {
        player.inputs.compactMap { input in
            if case .clock(let clockInput) = input { return clockInput }
            return nil
        }
    }

    /// Reads the service where its state lives.
    func read<T>(_ body: (ClockService) throws -> T) rethrows -> T {
        try loop.sync { try body(service) }
    }

    private static func describe(_ event: ClockEvent) -> String {
        switch event {
        case .alarmRinging(let alarm): "ringing \(alarm.id)"
        case .alarmMissed(let alarm, _): "missed \(alarm.id)"
        case .pomodoroPhaseChanged(let phase, _): "pomodoro \(phase)"
        case .sleepTimerFired: "sleep fired"
        case .sleepTimerChanged: "sleep changed"
        }
    }
}

/// Stands in for the player: records what the clock sends it.
final class RecordingPlayerLink: ClockPlayerLink {
    private let received = Mutex<[PlayerInput]>([])
    private let requestHandler = Mutex<(@Sendable (ClockRequest) -> Void)?>(nil)

    var inputs: [PlayerInput] { received.withLock { $0 } }
    func send(_ input: PlayerInput) { received.withLock { $0.append(input) } }
    func onClockRequest(_ handler: @escaping @Sendable (ClockRequest) -> Void) { requestHandler.withLock { $0 = handler } }
    /// What the player would ask when the user presses Stop or PlayPause.
    func request(_ request: ClockRequest) { requestHandler.withLock { $0 }?(request) }
}

/// Records notifications by slot: the latest summary shown in each, nil once withdrawn.
final class RecordingNotifier: DesktopNotifying {
    private let shown = Mutex<[String]>([])
    /// Every summary shown, in order.
    var summaries: [String] { shown.withLock { $0 } }
    func show(_ notification: DesktopNotification, in slot: String, onAction: (@Sendable (String) -> Void)?) {
        shown.withLock { $0.append(notification.summary) }
    }
    func withdraw(_ slot: String) {}
}

/// Records which reasons hold the machine awake.
final class RecordingInhibitor: SleepInhibiting {
    private let reasons = Mutex<Set<String>>([])
    var held: Set<String> { reasons.withLock { $0 } }
    func hold(_ reason: String, explanation: String) { _ = reasons.withLock { $0.insert(reason) } }
    func release(_ reason: String) { _ = reasons.withLock { $0.remove(reason) } }
}

/// What the clock announced, in order.
private final class Announcements: Sendable {
    private let items = Mutex<[String]>([])
    var all: [String] { items.withLock { $0 } }
    func append(_ item: String) { items.withLock { $0.append(item) } }
}
