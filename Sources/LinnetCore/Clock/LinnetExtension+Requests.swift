import ClockRules
import DBus
import FoundationEssentials
import LibraryFormats
import Timekeeping

/// Reading the requests' option maps and writing the replies.
extension LinnetExtension {
    func addAlarm(_ call: DBusMethodCall) async throws -> [DBusValue] {
        let time = try call.argument(0, as: String.self)
        let map = try OptionMap(call.arguments[1], allowed: ["label", "sound", "repeat", "ramp", "snooze"])
        var options = Alarm.Options()
        if let label = try map.string("label", maxBytes: LinnetLimits.labelBytes) { options.label = label }
        if let ramp = try map.seconds("ramp", allowZero: true) { options.ramp = ramp }
        if let snooze = try map.seconds("snooze", allowZero: false) { options.snooze = snooze }
        if let rule = try map.string("repeat", maxBytes: LinnetLimits.repeatRuleBytes) {
            do {
                options.repeatRule = try RepeatRule.parse(rule)
            } catch {
                throw DBusError(.invalidArgs, error.description)
            }
        }
        if let sound = try map.string("sound", maxBytes: LinnetLimits.pathBytes) {
            // Alarms are saved and listed: a stream's credentials would be written down, so an
            // alarm keeps its sound's URI without them.
            options.sound = try await playableURIs(sound, what: "sound").first.map(URICredentials.removed(from:))
        } else {
            clock.prepareBuiltInSounds(bell: false)
        }
        let alarm = try invalidArgs { () throws(AlarmError) in try clock.addAlarm(time, options: options) }
        // Answered once it is saved (a flood of adds shares writes), so a crash after the
        // reply cannot lose it.
        await clock.alarmsSettled()
        return [.uint32(alarm.id), .int64(Self.unixSeconds(alarm.nextFire))]
    }

    func startPomodoro(_ call: DBusMethodCall) async throws {
        let map = try OptionMap(call.arguments[0], allowed: ["work", "short-break", "long-break", "cycles", "music", "bell"])
        var settings = Pomodoro.Settings()
        if let work = try map.seconds("work", allowZero: false) { settings.work = work }
        if let short = try map.seconds("short-break", allowZero: false) { settings.shortBreak = short }
        if let long = try map.seconds("long-break", allowZero: false) { settings.longBreak = long }
        if let cycles = map.values["cycles"] {
            switch cycles {
            case .int32(let value): settings.cycles = Int(value)
            case .uint32(let value): settings.cycles = Int(value)
            default: throw DBusError(.invalidArgs, "cycles must be an integer (i or u)")
            }
        }
        var music: [PlayableItem] = []
        if let path = try map.string("music", maxBytes: LinnetLimits.pathBytes) { music = try await playableItems(path, what: "music") }
        let bell = try await map.string("bell", maxBytes: LinnetLimits.pathBytes).asyncMap { try await self.playableURIs($0, what: "bell").first }
        if bell == nil { clock.prepareBuiltInSounds(bell: true) }
        // On the loop, like every MPRIS command, so none slips past the take-over while it starts.
        let clock = self.clock
        let (chosenSettings, chosenMusic, chosenBell) = (settings, music, bell ?? nil)
        try await clock.loop.run {
            try invalidArgs { () throws(AlarmError) in try clock.startPomodoro(chosenSettings, music: chosenMusic, bell: chosenBell) }
        }
    }

    /// What `path` (a file, folder, playlist or URI) plays, or InvalidArgs saying why nothing.
    func playableItems(_ path: String, what: String) async throws(DBusError) -> [PlayableItem] {
        let resolved = await MediaResolver(scanner: nil).resolve([path], workingDirectory: "/", home: home)
        guard !resolved.items.isEmpty else {
            let reason = resolved.rejections.first.map { DBusError.excerpt("\($0)", maxBytes: 300) } ?? "nothing playable"
            throw DBusError(.invalidArgs, "\(what) \"\(DBusError.excerpt(URICredentials.removed(from: path)))\": \(URICredentials.scrubbed(reason))")
        }
        return resolved.items
    }

    private func playableURIs(_ path: String, what: String) async throws(DBusError) -> [String] {
        try await playableItems(path, what: what).map(\.uri)
    }

    func alarmList() -> DBusValue {
        let now = clock.clock.wallNow
        let resolver = clock.resolver
        return .array(Self.alarmType, clock.alarms.map { alarm in
            .structure([
                .uint32(alarm.id), .string(alarm.label), .int64(Self.unixSeconds(alarm.nextFire)),
                .string(resolver.describe(alarm.nextFire, relativeTo: now)), .string(alarm.repeatRule.description),
                .string(alarm.phase.rawValue), .string(alarm.sound ?? ""),
            ])
        })
    }

    func status() -> DBusValue {
        var entries: [(String, DBusValue)] = [
            ("alarms", .uint32(UInt32(clock.alarms.count))),
            ("focus-policy", .string(focus.policy.rawValue)),
        ]
        if let next = clock.alarms.first(where: { $0.phase != .ringing }) {
            entries.append(("next-alarm", .int64(Self.unixSeconds(next.nextFire))))
            entries.append(("next-alarm-text", .string(clock.resolver.describe(next.nextFire, relativeTo: clock.clock.wallNow))))
            entries.append(("next-alarm-label", .string(next.label)))
        }
        if let ringing = clock.ringingAlarm {
            entries.append(("ringing", .uint32(ringing.id)))
            entries.append(("ringing-label", .string(ringing.label)))
        }
        if let remaining = clock.sleepRemaining { entries.append(("sleep-remaining", .double(remaining.inSeconds))) }
        if let session = clock.pomodoro {
            let now = clock.clock.now
            entries.append(("pomodoro-phase", .string(session.phase.key)))
            entries.append(("pomodoro-title", .string(session.phaseTitle)))
            entries.append(("pomodoro-remaining", .double(session.remaining(at: now).inSeconds)))
            entries.append(("pomodoro-paused", .boolean(session.isPaused)))
        }
        return .stringVariantDictionary(entries)
    }

    /// An instant as D-Bus carries it: whole seconds since the Unix epoch (`x`), rounded down.
    static func unixSeconds(_ instant: WallInstant) -> Int64 {
        Int64(instant.secondsSinceEpoch.rounded(.towardZero))
    }

    /// SetSleepTimer's seconds, checked before they become durations (NaN or 1e300 is a bad
    /// request, not a crash); a fade longer than the timer fades over all of it.
    static func sleepTimerSpans(seconds: Double, fade: Double) throws(AlarmError) -> (duration: Duration, fade: Duration) {
        guard seconds.isFinite, seconds > 0, seconds <= ClockDuration.maximum.inSeconds else {
            throw AlarmError(description: "the sleep timer needs a duration above zero and under a year")
        }
        guard fade.isFinite, fade >= 0 else { throw AlarmError(description: "the fade cannot be negative") }
        return (.seconds(seconds), .seconds(min(fade, seconds)))
    }
}

/// An `a{sv}` of options, checked: unknown keys and wrong types answer InvalidArgs.
struct OptionMap {
    let values: [String: DBusValue]

    init(_ value: DBusValue, allowed: Set<String>) throws(DBusError) {
        guard case .dictionary(.string, _, let entries) = value else {
            throw DBusError(.invalidArgs, "options must be a{sv}")
        }
        var values: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            guard allowed.contains(key) else {
                throw DBusError(.invalidArgs, "unknown option \"\(DBusError.excerpt(key))\" (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            values[key] = entry.value.unwrapped
        }
        self.values = values
    }

    /// The string under `key`; LimitsExceeded if longer than `maxBytes`.
    func string(_ key: String, maxBytes: Int) throws(DBusError) -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else { throw DBusError(.invalidArgs, "\(key) must be a string") }
        return try LinnetLimits.check(text, maxBytes: maxBytes, what: key)
    }

    /// A duration: seconds as a number (`d`, `i`, `u`) or a string such as `25m`.
    func seconds(_ key: String, allowZero: Bool) throws(DBusError) -> Duration? {
        guard let value = values[key] else { return nil }
        let seconds: Double
        switch value {
        case .double(let number): seconds = number
        case .int32(let number): seconds = Double(number)
        case .uint32(let number): seconds = Double(number)
        case .int64(let number): seconds = Double(number)
        case .string(let text):
            let text = try LinnetLimits.check(text, maxBytes: LinnetLimits.durationBytes, what: key)
            do {
                seconds = try ClockDuration.parse(text, allowZero: allowZero).inSeconds
            } catch {
                throw DBusError(.invalidArgs, "\(key): \(error.description)")
            }
        default: throw DBusError(.invalidArgs, "\(key) must be seconds (d) or a duration string such as 25m")
        }
        guard seconds.isFinite, seconds >= 0, allowZero || seconds > 0, seconds <= ClockDuration.maximum.inSeconds else {
            throw DBusError(.invalidArgs, "\(key) must be \(allowZero ? "0" : "more than 0") to a year, not \(seconds)")
        }
        return .seconds(seconds)
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
