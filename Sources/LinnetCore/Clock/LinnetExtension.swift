public import DesktopClients
import ClockRules
public import DBus
import FoundationEssentials
import MPRIS
import Timekeeping

/// `io.linnet.Linnet1`: linnet's own interface next to MPRIS on `/org/mpris/MediaPlayer2`, for
/// what MPRIS has no words for (alarms, the sleep timer, the Pomodoro, the focus policy). The
/// declaration here is the source of `dbus/io.linnet.Linnet1.xml`, which a test checks against
/// introspection.
public final class LinnetExtension: Sendable {
    /// The interface name.
    public static let interfaceName: InterfaceName = "io.linnet.Linnet1"

    let clock: ClockService
    let connection: DBusConnection
    let focus: any AudioFocusing
    let home: String
    let lyrics: LyricsFollower?

    /// The interface for `clock`, served on `connection`; FocusPolicy reads and writes `focus`;
    /// the lyrics members follow `lyrics` (empty without one).
    public init(clock: ClockService, connection: DBusConnection, focus: any AudioFocusing, home: String,
                lyrics: LyricsFollower? = nil) {
        self.clock = clock
        self.connection = connection
        self.focus = focus
        self.home = home
        self.lyrics = lyrics
    }

    /// Exports the interface (call before the MPRIS server takes its name, so it is there the
    /// moment the name appears) and forwards the clock's events as signals.
    public func export() throws(DBusError) {
        try connection.export([declaration()], at: MPRISNames.objectPath)
        clock.onEvent { [weak self] event in self?.announce(event) }
        followLyrics()
    }

    private func announce(_ event: ClockEvent) {
        let path = MPRISNames.objectPath
        let name = Self.interfaceName
        switch event {
        case .alarmRinging(let alarm):
            try? connection.emitSignal("AlarmRinging", interface: name, path: path,
                                       arguments: [.uint32(alarm.id), .string(alarm.label)])
        case .alarmMissed(let alarm, let due):
            try? connection.emitSignal("AlarmMissed", interface: name, path: path,
                                       arguments: [.uint32(alarm.id), .string(alarm.label), .int64(Self.unixSeconds(due))])
        case .pomodoroPhaseChanged(let phase, let title):
            try? connection.emitSignal("PomodoroPhaseChanged", interface: name, path: path,
                                       arguments: [.string(phase), .string(title)])
            try? connection.notifyPropertiesChanged(["PomodoroPhase", "PomodoroPaused"], interface: name, path: path)
        case .sleepTimerFired:
            try? connection.emitSignal("SleepTimerFired", interface: name, path: path)
        case .sleepTimerChanged:
            try? connection.notifyPropertiesChanged(["SleepTimerActive"], interface: name, path: path)
        }
    }

    /// The interface: every member declared once, with its handler.
    func declaration() -> DBusInterface {
        DBusInterface(
            name: Self.interfaceName,
            methods: [
                .async("AddAlarm", inputs: [DBusArgument("time", .string, limit: LinnetLimits.time),
                                           DBusArgument("options", Self.optionsType, limit: LinnetLimits.options)],
                       outputs: [DBusArgument("id", .uint32), DBusArgument("next_fire", .int64)]) { [weak self] call in
                    guard let self else { throw DBusError(.unknownObject, "linnet is shutting down") }
                    return try await self.addAlarm(call)
                },
                DBusMethod("ListAlarms", outputs: [DBusArgument("alarms", Self.alarmListType)]) { [weak self] _ in
                    [self?.alarmList() ?? .array(Self.alarmType, [])]
                },
                DBusMethod("CancelAlarm", inputs: [DBusArgument("id", .uint32)]) { [weak self] call in
                    let id = try call.argument(0, as: UInt32.self)
                    try invalidArgs { () throws(AlarmError) in try self?.clock.cancelAlarm(id) }
                    return []
                },
                DBusMethod("SetSleepTimer", inputs: [DBusArgument("seconds", .double), DBusArgument("fade_seconds", .double)]) { [weak self] call in
                    let (seconds, fade): (Double, Double) = (try call.argument(0), try call.argument(1))
                    try invalidArgs { () throws(AlarmError) in
                        let spans = try Self.sleepTimerSpans(seconds: seconds, fade: fade)
                        try self?.clock.setSleepTimer(duration: spans.duration, fade: spans.fade)
                    }
                    return []
                },
                DBusMethod("CancelSleepTimer") { [weak self] _ in
                    self?.clock.cancelSleepTimer()
                    return []
                },
                .async("StartPomodoro", inputs: [DBusArgument("options", Self.optionsType, limit: LinnetLimits.options)]) { [weak self] call in
                    guard let self else { throw DBusError(.unknownObject, "linnet is shutting down") }
                    try await self.startPomodoro(call)
                    return []
                },
                DBusMethod("StopPomodoro") { [weak self] _ in
                    self?.clock.stopPomodoro()
                    return []
                },
                DBusMethod("TogglePomodoro", outputs: [DBusArgument("paused", .boolean)]) { [weak self] _ in
                    guard let clock = self?.clock, clock.pomodoro != nil else {
                        throw DBusError(Self.noPomodoro, "no Pomodoro is running (start one with StartPomodoro)")
                    }
                    clock.togglePomodoro()
                    return [.boolean(clock.pomodoro?.isPaused ?? false)]
                },
                DBusMethod("GetStatus", outputs: [DBusArgument("status", Self.optionsType)]) { [weak self] _ in
                    [self?.status() ?? .stringVariantDictionary([])]
                },
            ] + lyricsMethods(),
            properties: [
                DBusProperty("SleepTimerActive", type: .boolean) { [weak self] in
                    .boolean(self?.clock.sleepRemaining != nil)
                },
                // Changes every instant; read it (GetStatus has it too) rather than wait for it.
                DBusProperty("SleepTimerRemaining", type: .double, emitsChangedSignal: .false) { [weak self] in
                    .double(self?.clock.sleepRemaining?.inSeconds ?? 0)
                },
                DBusProperty("PomodoroPhase", type: .string) { [weak self] in
                    .string(self?.clock.pomodoro?.phase.key ?? "")
                },
                DBusProperty("PomodoroPaused", type: .boolean) { [weak self] in
                    .boolean(self?.clock.pomodoro?.isPaused ?? false)
                },
                DBusProperty(
                    "FocusPolicy", type: .string, access: .readwrite,
                    get: { [weak self] in .string(self?.focus.policy.rawValue ?? FocusPolicy.mix.rawValue) },
                    set: { [weak self] value in
                        let text = try value.decode(as: String.self)
                        guard let policy = FocusPolicy(rawValue: text) else {
                            throw DBusError(.invalidArgs, "FocusPolicy must be one of: \(FocusPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
                        }
                        self?.focus.setPolicy(policy)
                        if let self {
                            try? self.connection.notifyPropertiesChanged(["FocusPolicy"], interface: Self.interfaceName, path: MPRISNames.objectPath)
                        }
                    }),
            ] + lyricsProperties(),
            signals: [
                DBusSignalDeclaration("AlarmRinging", arguments: [DBusArgument("id", .uint32), DBusArgument("label", .string)]),
                DBusSignalDeclaration("AlarmMissed", arguments: [DBusArgument("id", .uint32), DBusArgument("label", .string), DBusArgument("due", .int64)]),
                DBusSignalDeclaration("PomodoroPhaseChanged", arguments: [DBusArgument("phase", .string), DBusArgument("title", .string)]),
                DBusSignalDeclaration("SleepTimerFired"),
            ])
    }

    /// TogglePomodoro's answer when no Pomodoro runs.
    public static let noPomodoro: ErrorName = "io.linnet.Linnet1.Error.NoPomodoro"

    static let optionsType = DBusType.dictionary(key: .string, value: .variant)
    /// (id, label, next fire in Unix seconds, next fire as local text, repeat rule, state, sound).
    static let alarmType = DBusType.structure([.uint32, .string, .int64, .string, .string, .string, .string])
    static let alarmListType = DBusType.array(alarmType)
}

/// Runs a clock request, answering a refusal with InvalidArgs (LimitsExceeded for a cap) and
/// its explanation.
func invalidArgs<T>(_ work: () throws(AlarmError) -> T) throws(DBusError) -> T {
    do {
        return try work()
    } catch {
        throw DBusError(error.exceedsLimit ? .limitsExceeded : .invalidArgs, error.description)
    }
}
