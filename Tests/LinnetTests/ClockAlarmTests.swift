@testable import DesktopClients
@testable import ClockRules
import DBus
import Foundation
import LinnetCore
import MPRIS
import Testing
import TestSupport
import Timekeeping

/// Alarms with the real binary on a private bus: the sound proven through a WAV capture of the
/// effects stream, another real player paused and resumed, notifications with working actions,
/// MPRIS Stop/Next, persistence and missed alarms. One at a time, beside the timer tests: two
/// linnet worlds at once are enough load for a two-core machine running the whole suite.
@Suite(.serialized) struct ClockAlarmTests {
    @Test(.timeLimit(.minutes(2)))
    func anAlarmRingsOverTheMusicPausesOthersAndAnswersStopNextAndItsNotification() async throws {
        let world = try LinnetWorld()
        let notifications = try RecordingNotificationServer(address: world.bus.address)
        let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
        let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
        let other = try await OtherPlayer("other", in: world, playing: long)
        try await world.start(["--no-resume", mine] + world.effectsArguments)
        try await world.waitUntil("linnet playing") { try await world.title() == "Mine" }
        try await other.waitForStatus("Playing")

        let set = try await world.cli("alarm", "+2s", "--label", "Wake up", "--ramp", "1s", "--snooze", "2s")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.output.hasPrefix("alarm 1 set for "))

        // Ring 1: the alarm takes over MPRIS and the desktop; the music and the other player wait.
        try await world.waitUntil("AlarmRinging") { world.clockSignals("AlarmRinging").count == 1 }
        #expect(world.clockSignals("AlarmRinging").first?.arguments == [.uint32(1), .string("Wake up")])
        try await world.waitUntil("the alarm in Metadata") { try await world.title() == "Wake up" }
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        try await other.waitForStatus("Paused")
        try await world.waitUntil("the alarm notification") { notifications.notifications.contains { $0.summary == "Wake up" } }
        let bubble = try #require(notifications.notifications.last { $0.summary == "Wake up" })
        #expect(bubble.actions == ["snooze", "Snooze", "stop", "Stop"])
        // Let it ring for 1.6 s of audio, then prove the sound and its ramp against the tone itself.
        try await world.waitUntil("1.6 s of alarm audio") {
            try await (CapturedSounds.read(world.effectsCapture).durations.first ?? 0) >= 1.6
        }
        let source = try #require(Self.plainWAV(world.home.appendingPathComponent("cache/linnet/sounds/alarm.wav")))
        let played = try #require(try await CapturedSounds.read(world.effectsCapture).sounds.first)
        let early = CapturedSounds.rms(played, from: 0, to: 0.25) / CapturedSounds.rms(source, from: 0, to: 0.25)
        let late = CapturedSounds.rms(played, from: 1.2, to: 1.55) / CapturedSounds.rms(source, from: 1.2, to: 1.55)
        #expect(early < 0.4, "the first 0.25 s play quietly while the volume ramps (ratio \(early))")
        #expect(late > 0.7, "after the 1 s ramp the tone plays at full level (ratio \(late))")

        // Next snoozes: silence, the music and the other player come back.
        try await world.playerctl("next")
        try await world.waitUntil("the music back") { try await world.title() == "Mine" }
        #expect(try await world.listedAlarms().map(\.state) == ["snoozed"])
        try await other.waitForStatus("Playing")
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))

        // Ring 2 (after the 2 s snooze): the notification's Snooze button.
        try await world.waitUntil("AlarmRinging again") { world.clockSignals("AlarmRinging").count == 2 }
        try await world.waitUntil("a second alarm bubble") { notifications.notifications.filter { $0.summary == "Wake up" }.count == 2 }
        let second = try #require(notifications.notifications.last { $0.summary == "Wake up" })
        // The server records a bubble before linnet has its id back: click until linnet acts.
        try await world.waitUntil("snoozed by the notification") {
            try notifications.invokeAction(id: second.id, key: "snooze", closing: false)
            return try await world.listedAlarms().map(\.state) == ["snoozed"]
        }

        // Ring 3: MPRIS Stop (playerctl stop) dismisses it: a one-shot alarm is then gone.
        try await world.waitUntil("AlarmRinging a third time") { world.clockSignals("AlarmRinging").count == 3 }
        try await other.waitForStatus("Paused")
        try await world.playerctl("stop")
        try await world.waitUntil("dismissed") { try await world.listedAlarms().isEmpty }
        try await world.waitUntil("the music back") { try await world.title() == "Mine" }
        try await other.waitForStatus("Playing")

        // Another alarm, stopped from its notification.
        #expect(try await world.cli("alarm", "+1s", "--label", "Tea").status == 0)
        try await world.waitUntil("the Tea bubble") { notifications.notifications.contains { $0.summary == "Tea" } }
        let tea = try #require(notifications.notifications.last { $0.summary == "Tea" })
        try await world.waitUntil("Tea dismissed by the notification") {
            try notifications.invokeAction(id: tea.id, key: "stop", closing: false)
            return try await world.listedAlarms().isEmpty
        }
        try await world.waitUntil("the music back after Tea") { try await world.title() == "Mine" }
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func alarmsSurviveARestartAndOneMissedWhileDownIsReportedNotRung() async throws {
        let world = try LinnetWorld()
        let notifications = try RecordingNotificationServer(address: world.bus.address)
        // Written as linnet would have: one alarm due two hours ago (linnet was down), one daily.
        let file = world.home.appendingPathComponent("state/linnet/alarms.json")
        let resolver = WallClockResolver(timeZone: TimeZone.current)
        let then = WallInstant(Date()) - .seconds(7200)
        var book = AlarmBook()
        var options = Alarm.Options()
        options.label = "Dentist"
        let missed = try book.add(.instant(then + .seconds(60)), options: options, now: then, resolver: resolver)
        options.label = "Morning"
        options.repeatRule = .daily
        let daily = try book.add(.wallClock(WallClockTime(hour: 7, minute: 30)!), options: options, now: WallInstant(Date()), resolver: resolver)
        try StateStore<AlarmBook>(fileURL: file).save(book)

        let quiet = try await world.makeTrack("quiet.ogg", title: "Quiet", seconds: 1)
        try await world.start(["--no-resume", "--paused", quiet] + world.effectsArguments)
        try await world.waitUntil("AlarmMissed") { !world.clockSignals("AlarmMissed").isEmpty }
        let signal = try #require(world.clockSignals("AlarmMissed").first)
        #expect(signal.arguments.prefix(2) == [.uint32(missed.id), .string("Dentist")])
        try await world.waitUntil("the missed-alarm notification") {
            notifications.notifications.contains { $0.summary == "Missed alarm: Dentist" }
        }
        #expect(world.log.contains("missed alarm \(missed.id) \"Dentist\""))
        #expect(try await world.listedAlarms().map(\.id) == [daily.id])
        // Reported, not rung: nothing played on the effects stream, nothing took over MPRIS.
        #expect(world.clockSignals("AlarmRinging").isEmpty)
        #expect(try await CapturedSounds.read(world.effectsCapture).sounds.isEmpty)
        #expect(try await world.player("PlaybackStatus") != .string("Playing"))

        // A restart keeps the daily alarm (same id, same next time) and reports nothing again,
        // once the report's removal of the missed alarm is on disk (it is saved off the loop, so
        // a kill -9 an instant after the report may still find it there).
        try await world.waitUntil("the missed alarm's removal saved") {
            guard case .loaded(let saved) = StateStore<AlarmBook>(fileURL: file).load() else { return false }
            return saved.alarms.map(\.id) == [daily.id]
        }
        world.kill()
        let before = world.signals.values.count
        try await world.start(["--no-resume", "--paused", quiet] + world.effectsArguments)
        let listed = try await world.listedAlarms()
        #expect(listed.map(\.id) == [daily.id])
        #expect(listed.first?.nextFire == Int64(daily.nextFire.secondsSinceEpoch))
        #expect(world.signals.values.dropFirst(before).allSatisfy { $0.member.rawValue != "AlarmMissed" })
        #expect(try await world.cli("alarms").output.contains("daily\tMorning"))
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func badRequestsAnswerInvalidArgsAndTheInterfaceMatchesItsXML() async throws {
        let world = try LinnetWorld()
        let portal = try RecordingPortalInhibitor(address: world.bus.address)
        // The CLI without a running linnet: a clear message and a non-zero status.
        let absent = try await world.cli("alarms")
        #expect(absent.status == 69)
        #expect(absent.stderr.contains("linnet is not running"))

        let quiet = try await world.makeTrack("quiet.ogg", title: "Quiet", seconds: 1)
        try await world.start(["--no-resume", "--paused", quiet] + world.effectsArguments)
        func refusal(_ member: MemberName, _ arguments: [DBusValue]) async -> DBusError? {
            do {
                _ = try await world.clock.call(member, arguments)
                return nil
            } catch {
                return error
            }
        }
        let options = DBusValue.stringVariantDictionary([])
        for time in ["25:00", "tomorrow", "+0s", "2020-01-01T07:00Z", ""] {
            let error = await refusal("AddAlarm", [.string(time), options])
            #expect(error?.name == .invalidArgs, "\(time): \(String(describing: error))")
        }
        let badOptions: [DBusValue] = [
            .stringVariantDictionary([("volume", .double(1))]),
            .stringVariantDictionary([("label", .int32(3))]),
            .stringVariantDictionary([("repeat", .string("fortnightly"))]),
            .stringVariantDictionary([("ramp", .string("soon"))]),
            .stringVariantDictionary([("snooze", .double(0))]),
            .stringVariantDictionary([("sound", .string("/nonexistent/tone.ogg"))]),
            .stringVariantDictionary([("repeat", .string("daily"))]),
        ]
        for bad in badOptions {
            let time = bad["repeat"] == .string("daily") ? "+5m" : "07:30"
            let error = await refusal("AddAlarm", [.string(time), bad])
            #expect(error?.name == .invalidArgs, "\(bad): \(String(describing: error))")
        }
        #expect(await refusal("CancelAlarm", [.uint32(42)])?.message.contains("no alarm has id 42") == true)
        #expect(await refusal("SetSleepTimer", [.double(0), .double(0)])?.name == .invalidArgs)
        #expect(await refusal("SetSleepTimer", [.double(.nan), .double(0)])?.name == .invalidArgs)
        #expect(await refusal("StartPomodoro", [.stringVariantDictionary([("cycles", .int32(0))])])?.name == .invalidArgs)
        #expect(await refusal("StartPomodoro", [.stringVariantDictionary([("work", .string("-1m"))])])?.name == .invalidArgs)
        #expect(await refusal("TogglePomodoro", [])?.name == "io.linnet.Linnet1.Error.NoPomodoro")
        do {
            try await world.clock.setProperty("FocusPolicy", to: .string("loud"))
            Issue.record("an unknown focus policy was accepted")
        } catch {
            #expect(error.name == .invalidArgs)
        }
        try await world.clock.setProperty("FocusPolicy", to: .string("duck"))
        #expect(try await world.clock.property("FocusPolicy") == .string("duck"))
        let cli = try await world.cli("alarm", "7:61")
        #expect(cli.status != 0)
        #expect(cli.stderr.contains("7:61"))

        // An alarm within the hour holds the suspend inhibitor (linnet itself is paused).
        #expect(portal.active.isEmpty)
        #expect(try await world.cli("alarm", "+30m", "--label", "Soon").status == 0)
        try await world.waitUntil("the alarm inhibitor") { portal.active.count == 1 }
        #expect(portal.active.first?.reason?.contains("alarm") == true)

        // The interface file in dbus/ is what linnet serves.
        let environment = world.environment
        let introspection = try await offPool {
            try ExternalTool.run("gdbus", ["introspect", "--xml", "--session", "--dest", LinnetWorld.playerName.rawValue,
                                           "--object-path", MPRISNames.objectPath.rawValue], environment: environment)
        }
        #expect(introspection.status == 0, "\(introspection.stderr)")
        let served = try #require(IntrospectionModel(xml: introspection.stdout).interfaces["io.linnet.Linnet1"])
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let xml = try String(contentsOf: repository.appendingPathComponent("dbus/io.linnet.Linnet1.xml"), encoding: .utf8)
        let declared = try #require(IntrospectionModel(xml: xml).interfaces["io.linnet.Linnet1"])
        #expect(served.members == declared.members)
        // The caps are part of that contract: published per argument, the same in both.
        #expect(served.members.contains { $0.contains("in s time [io.linnet.DBus.Limit.MaxStringBytes=128]") }, "\(served.members)")
        #expect(served.properties == declared.properties)
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func anUnansweredAlarmStopsAfterTheRingLimitAndTheInhibitorGoes() async throws {
        let world = try LinnetWorld()
        let portal = try RecordingPortalInhibitor(address: world.bus.address)
        let quiet = try await world.makeTrack("quiet.ogg", title: "Quiet", seconds: 1)
        try await world.start(["--no-resume", "--paused", "--ring-limit", "2s", quiet] + world.effectsArguments)
        let set = try await world.clock.call("AddAlarm", [.string("+1s"), .stringVariantDictionary([("ramp", .string("0"))])])
        #expect(set.first == .uint32(1))
        try await world.waitUntil("ringing") { !world.clockSignals("AlarmRinging").isEmpty }
        try await world.waitUntil("stopped on its own") { try await world.listedAlarms().isEmpty }
        // Nobody answered: the ring limit stopped it.
        #expect(world.log.contains("alarm 1 unanswered for 0:02; stopping it"))
        // Held for the alarm (linnet itself is paused), released once it has rung.
        #expect(portal.inhibitions.count == 1)
        try await world.waitUntil("the inhibitor released", timeout: .seconds(20)) { portal.active.isEmpty }
        #expect(try await world.player("PlaybackStatus") == .string("Paused"))
        try await world.waitUntil("the track, not the alarm") { try await world.title() == "Quiet" }
        world.kill()
    }

    /// The samples of a plain (non-appended) WAV file written by linnet's synthesiser.
    static func plainWAV(_ file: URL) -> [Int16]? {
        guard let data = try? Data(contentsOf: file), data.count > 44,
            let marker = data.range(of: Data("data".utf8))
        else { return nil }
        let start = marker.upperBound + 4
        let end = data.endIndex - (data.endIndex - start) % 2
        return data[start..<end].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
