@testable import ClockRules
import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// The sleep timer and the Pomodoro with the real binary, with durations of seconds; the music
/// and the bells are captured to WAV files. One at a time, beside the alarm tests.
@Suite(.serialized) struct ClockTimerTests {
    @Test(.timeLimit(.minutes(1)))
    func theSleepTimerFadesOutPausesAndRestoresTheVolume() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("tone.ogg", title: "Tone", seconds: 60)
        try await world.start(["--no-resume", track], sink: LinnetWorld.captureSink(world.musicCapture, append: true))
        try await world.waitUntil("playing") { try await world.player("PlaybackStatus") == .string("Playing") }
        try await world.waitUntil("a second of music") {
            try await (CapturedSounds.read(world.musicCapture).durations.last ?? 0) >= 1
        }

        let set = try await world.cli("sleep", "3s", "--fade", "2s")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try await world.clock.property("SleepTimerActive") == .boolean(true))
        let status = try await world.cli("status")
        #expect(status.output.contains("sleep timer: 0:0"), "\(status.output)")
        try await world.waitUntil("SleepTimerFired") { !world.clockSignals("SleepTimerFired").isEmpty }
        try await world.waitUntil("paused") { try await world.player("PlaybackStatus") == .string("Paused") }
        // The fade never changed the volume setting.
        #expect(try await world.player("Volume") == .double(1))
        #expect(try await world.clock.property("SleepTimerActive") == .boolean(false))

        // What was played: steady, then falling over the last two seconds before the pause.
        let music = try #require(try await CapturedSounds.read(world.musicCapture).sounds.last)
        let length = Double(music.count / 2) / Double(CapturedSounds.sampleRate)
        let steady = CapturedSounds.rms(music, from: 0.2, to: 0.8)
        let midFade = CapturedSounds.rms(music, from: length - 1.3, to: length - 0.9)
        let end = CapturedSounds.rms(music, from: length - 0.35, to: length)
        #expect(steady > 1000, "the tone was captured (rms \(steady))")
        #expect(midFade < steady * 0.85 && midFade > steady * 0.15, "half-way through the fade (rms \(midFade) of \(steady))")
        #expect(end < midFade * 0.6, "quieter still at the end (rms \(end) after \(midFade))")

        // Played again, it plays at the full setting; `sleep off` cancels a timer.
        try await world.playerctl("play")
        #expect(try await world.cli("sleep", "1h").status == 0)
        #expect(try await world.cli("sleep", "off").status == 0)
        #expect(try await world.clock.property("SleepTimerActive") == .boolean(false))
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func aPomodoroRunsTwoCyclesWithBellsNotificationsAndMusicPauses() async throws {
        let world = try LinnetWorld()
        let notifications = try RecordingNotificationServer(address: world.bus.address)
        let track = try await world.makeTrack("focus.ogg", title: "Focus Music", seconds: 120)
        try await world.start(["--no-resume", "--paused", track] + world.effectsArguments)
        try await world.waitForScannedQueue()
        let before = world.signals.values.count

        // Phases of a few seconds, each long enough for its bell to start playing before the next
        // one replaces it on a loaded machine (2 s breaks were not).
        let started = try await world.cli("pomodoro", "--work", "4s", "--short-break", "4s", "--long-break", "4s", "--cycles", "2")
        #expect(started.status == 0, "\(started.stderr)")
        try await world.waitUntil("the music") { try await world.player("PlaybackStatus") == .string("Playing") }
        #expect(try await world.title() == "Focus 1 of 2 · 1 min left")
        #expect(try await world.clock.property("PomodoroPhase") == .string("focus"))

        try await world.waitUntil("the end", timeout: .seconds(45)) {
            world.clockSignals("PomodoroPhaseChanged").last?.arguments.first == .string("")
        }
        let phases = world.clockSignals("PomodoroPhaseChanged").compactMap { signal -> String? in
            if case .string(let phase)? = signal.arguments.first { return phase }
            return nil
        }
        #expect(phases == ["focus", "short-break", "focus", "long-break", ""])

        // Music in the focus blocks, paused in the breaks.
        let statuses = world.signals.values.dropFirst(before).compactMap { signal -> String? in
            guard signal.member.rawValue == "PropertiesChanged", signal.arguments.first == .string(MPRISNames.player.rawValue),
                case .string(let status)? = signal.arguments.dropFirst().first?["PlaybackStatus"]
            else { return nil }
            return status
        }
        #expect(statuses == ["Playing", "Paused", "Playing", "Paused"], "\(statuses)")
        // Metadata (phase and minutes left) changes at phase changes only: no storm.
        let metadataChanges = world.signals.values.dropFirst(before).filter { signal in
            signal.member.rawValue == "PropertiesChanged" && signal.arguments.first == .string(MPRISNames.player.rawValue)
                && signal.arguments.dropFirst().first?["Metadata"] != nil
        }
        print("ClockTimer: \(metadataChanges.count) Metadata changes over a two-cycle Pomodoro")
        #expect(metadataChanges.count <= 6, "the start, three phase changes and the end (one spare for a late tag)")

        // Notifications travel as calls of their own, after the signal: wait for the last.
        try await world.waitUntil("five notifications") { notifications.notifications.count >= 5 }
        let summaries = notifications.notifications.map(\.summary)
        #expect(summaries == [
            "Focus 1 of 2", "Focus 1 of 2 done — 4 second break", "Break over — focus 2 of 2",
            "Focus 2 of 2 done — 4 second break", "Pomodoro done",
        ], "\(summaries)")
        // A bell at each of the four changes, each one audible.
        try await world.waitUntil("the last bell captured") {
            try await CapturedSounds.read(world.effectsCapture).sounds.count == 4
        }
        let bells = try await CapturedSounds.read(world.effectsCapture).sounds
        for bell in bells {
            #expect(CapturedSounds.rms(bell, from: 0, to: 0.3) > 500)
        }
        #expect(try await world.clock.property("PomodoroPhase") == .string(""))
        world.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func playPauseFreezesTheWholePomodoroAndStopEndsIt() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("queued.ogg", title: "Queued", seconds: 120)
        let music = try await world.makeTrack("focus.ogg", title: "Focus Music", seconds: 120)
        try await world.start(["--no-resume", "--paused", track] + world.effectsArguments)
        // --music replaces the queue; a relative path is the client's.
        let started = try await offPool { [environment = world.environment, media = world.media] in
            try ExternalTool.run("/bin/sh", ["-c", "cd '\(media.path)' && '\(LinnetWorld.binary.path)' pomodoro --work 25m --music focus.ogg"],
                                 environment: environment)
        }
        #expect(started.status == 0, "\(started.stderr)")
        try await world.waitUntil("the music") { try await world.player("PlaybackStatus") == .string("Playing") }
        #expect(try await world.title() == "Focus 1 of 4 · 25 min left")
        #expect(try await world.player("Metadata")["xesam:url"] == .string(URL(fileURLWithPath: music).absoluteString))

        try await world.playerctl("play-pause")
        try await world.waitUntil("paused") { try await world.player("PlaybackStatus") == .string("Paused") }
        #expect(try await world.clock.property("PomodoroPaused") == .boolean(true))
        #expect(try await world.title() == "Paused — Focus 1 of 4 · 25 min left")
        #expect(try await world.cli("status").output.contains("pomodoro: Focus 1 of 4, 2"))

        try await world.playerctl("play-pause")
        try await world.waitUntil("resumed") { try await world.player("PlaybackStatus") == .string("Playing") }
        #expect(try await world.clock.property("PomodoroPaused") == .boolean(false))

        #expect(try await world.cli("pomodoro", "stop").status == 0)
        #expect(try await world.clock.property("PomodoroPhase") == .string(""))
        try await world.waitForScannedQueue()
        #expect(try await world.title() == "Focus Music")
        // Without a Pomodoro, PlayPause is the music's again.
        try await world.playerctl("play-pause")
        try await world.waitUntil("paused") { try await world.player("PlaybackStatus") == .string("Paused") }
        world.kill()
    }
}
