import ClockRules
import ArgumentParser
import DBus
import FoundationEssentials
import LinnetCore
import MPRIS
import Timekeeping

/// `linnet alarm TIME …`
struct AlarmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm", abstract: "Set an alarm on the running linnet.",
        discussion: "TIME: 07:30, 7:30pm, +10m, +90s or an ISO date-time such as 2026-11-22T07:30.")

    @Argument(help: "When to ring.") var time: String
    @Option(help: "A sound file, folder, playlist or URI (default: a built-in tone).") var sound: String?
    @Option(help: "What the notification and panels show.") var label: String?
    @Option(name: .customLong("repeat"), help: "daily, weekdays, weekends or days such as MON,WED,FRI.") var repeatRule: String?
    @Option(help: "Time for the volume to rise to full (e.g. 30s; 0 for full at once).") var ramp: String?
    @Option(help: "How long Snooze waits (e.g. 9m).") var snooze: String?
    @OptionGroup var instance: InstanceOptions

    func validate() throws {
        if let repeatRule {
            do { _ = try RepeatRule.parse(repeatRule) } catch { throw ValidationError(error.description) }
        }
        if let ramp { _ = try parseDuration(ramp, allowZero: true) }
        if let snooze { _ = try parseDuration(snooze) }
    }

    func run() async throws {
        let client = try LinnetClient(instance)
        var options: [(String, DBusValue)] = []
        if let label { options.append(("label", .string(label))) }
        if let sound { options.append(("sound", .string(absolutePath(sound)))) }
        if let repeatRule { options.append(("repeat", .string(repeatRule))) }
        if let ramp { options.append(("ramp", .double(try parseDuration(ramp, allowZero: true)))) }
        if let snooze { options.append(("snooze", .double(try parseDuration(snooze)))) }
        let reply = try await client.call("AddAlarm", [.string(time), .stringVariantDictionary(options)])
        guard case .uint32(let id)? = reply.first, case .int64(let fire)? = reply.last else { return }
        let when = WallClockResolver(timeZone: LocalTimeZone.current).describe(WallInstant(secondsSinceEpoch: Double(fire)), relativeTo: WallInstant(Date()))
        print("alarm \(id) set for \(when)")
    }
}

/// `linnet alarms`
struct AlarmsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "alarms", abstract: "List the alarms: id, next time, repeat, label.")
    @OptionGroup var instance: InstanceOptions

    func run() async throws {
        let reply = try await LinnetClient(instance).call("ListAlarms")
        guard case .array(_, let alarms)? = reply.first, !alarms.isEmpty else {
            print("no alarms")
            return
        }
        for case .structure(let fields) in alarms where fields.count == 7 {
            guard case .uint32(let id) = fields[0], case .string(let label) = fields[1], case .string(let when) = fields[3],
                case .string(let rule) = fields[4], case .string(let phase) = fields[5]
            else { continue }
            let state = phase == "scheduled" ? "" : "  (\(phase))"
            print("\(id)\t\(when)\t\(rule)\t\(label)\(state)")
        }
    }
}

/// `linnet cancel ID`
struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Remove an alarm (ids from `linnet alarms`).")
    @Argument(help: "The alarm's id.") var id: UInt32
    @OptionGroup var instance: InstanceOptions

    func run() async throws {
        // CancelAlarm(u) is refused only for an id no alarm has: not bad usage, its own status.
        _ = try await LinnetClient(instance).call("CancelAlarm", [.uint32(id)], refusalStatus: 65)
        print("alarm \(id) cancelled")
    }
}

/// `linnet sleep DURATION [--fade F] | off`
struct SleepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep", abstract: "Pause the music after a while, fading out; `linnet sleep off` cancels.")
    @Argument(help: "How long until the pause (e.g. 30m), or off.") var duration: String
    @Option(help: "Fade the volume out over the last part (e.g. 30s).") var fade = "30s"
    @OptionGroup var instance: InstanceOptions

    func validate() throws {
        if duration != "off" { _ = try parseDuration(duration) }
        _ = try parseDuration(fade, allowZero: true)
    }

    func run() async throws {
        let client = try LinnetClient(instance)
        if duration == "off" {
            _ = try await client.call("CancelSleepTimer")
            print("sleep timer off")
            return
        }
        let seconds = try parseDuration(duration)
        let fadeSeconds = try parseDuration(fade, allowZero: true)
        _ = try await client.call("SetSleepTimer", [.double(seconds), .double(fadeSeconds)])
        print("pausing in \(ClockDuration.clock(.seconds(seconds)))")
    }
}

/// `linnet pomodoro [stop|pause|resume] …`
struct PomodoroCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pomodoro", abstract: "Focus blocks with music and breaks without; `linnet pomodoro stop` ends it.")

    enum Verb: String, ExpressibleByArgument, CaseIterable { case start, stop, pause, resume, toggle }

    @Argument(help: "start (default), stop, pause, resume or toggle.") var verb: Verb = .start
    @Option(help: "Focus block length.") var work = "25m"
    @Option(name: .customLong("short-break"), help: "Break between blocks.") var shortBreak = "5m"
    @Option(name: .customLong("long-break"), help: "Break after the last block.") var longBreak = "15m"
    @Option(help: "Focus blocks.") var cycles = 4
    @Option(help: "Music for the focus blocks: file, folder, playlist or URI (default: what is queued).") var music: String?
    @Option(help: "The bell rung at each phase change (default: a built-in one).") var bell: String?
    @OptionGroup var instance: InstanceOptions

    func validate() throws {
        for value in [work, shortBreak, longBreak] { _ = try parseDuration(value) }
        guard (1...100).contains(cycles) else { throw ValidationError("--cycles must be 1 to 100") }
    }

    func run() async throws {
        let client = try LinnetClient(instance)
        switch verb {
        case .stop:
            _ = try await client.call("StopPomodoro")
            print("Pomodoro stopped")
        case .pause, .resume, .toggle:
            let status = try await client.call("GetStatus").first
            guard case .boolean(let paused)? = status?["pomodoro-paused"] else {
                LinnetClient.fail("no Pomodoro is running")
            }
            if verb == .toggle || (verb == .pause) != paused {
                let reply = try await client.call("TogglePomodoro")
                print(reply.first == .boolean(true) ? "Pomodoro paused" : "Pomodoro running")
            }
        case .start:
            var options: [(String, DBusValue)] = [
                ("work", .double(try parseDuration(work))), ("short-break", .double(try parseDuration(shortBreak))),
                ("long-break", .double(try parseDuration(longBreak))), ("cycles", .int32(Int32(cycles))),
            ]
            if let music { options.append(("music", .string(absolutePath(music)))) }
            if let bell { options.append(("bell", .string(absolutePath(bell)))) }
            _ = try await client.call("StartPomodoro", [.stringVariantDictionary(options)])
            print("Pomodoro: \(cycles) × \(work) focus, \(shortBreak) breaks, \(longBreak) at the end")
        }
    }
}

/// `linnet status`
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "What linnet plays and its timers.")
    @OptionGroup var instance: InstanceOptions

    func run() async throws {
        let client = try LinnetClient(instance)
        let playback = try await client.playerProperty("PlaybackStatus")
        let metadata = try await client.playerProperty("Metadata")
        if case .string(let status) = playback {
            let title = try await trackTitle(client, metadata)
            print("player: \(status)" + (title.map { " — \($0)" } ?? ""))
        }
        guard let status = try await client.call("GetStatus").first else { return }
        if case .uint32(let id)? = status["ringing"], case .string(let label)? = status["ringing-label"] {
            print("ringing: alarm \(id) \(label)")
        }
        if case .string(let when)? = status["next-alarm-text"], case .string(let label)? = status["next-alarm-label"] {
            print("next alarm: \(when) \(label)")
        } else {
            print("next alarm: none")
        }
        if case .double(let remaining)? = status["sleep-remaining"] {
            print("sleep timer: \(ClockDuration.clock(.seconds(remaining))) left")
        }
        if case .string(let title)? = status["pomodoro-title"], case .double(let remaining)? = status["pomodoro-remaining"] {
            let paused = status["pomodoro-paused"] == .boolean(true) ? " (paused)" : ""
            print("pomodoro: \(title), \(ClockDuration.clock(.seconds(remaining))) left\(paused)")
        }
        if case .string(let policy)? = status["focus-policy"] { print("focus policy: \(policy)") }
    }

    /// The current queue entry's own title. The player's Metadata shows what overlays it (a
    /// Pomodoro's "Paused — Focus 1 of 2 · 24 min left", a ringing alarm), which the lines below
    /// report themselves; repeating it put the state word on the line twice.
    private func trackTitle(_ client: LinnetClient, _ metadata: DBusValue) async throws -> String? {
        guard case .objectPath(let track)? = metadata["mpris:trackid"], track.rawValue.hasPrefix("/org/linnet/track/") else {
            return nil
        }
        let reply = try await client.call("GetTracksMetadata", [.array(.objectPath, [.objectPath(track)])], interface: MPRISNames.trackList)
        guard case .array(_, let maps)? = reply.first, case .string(let title)? = maps.first?["xesam:title"] else { return nil }
        return title
    }
}
