import Foundation
import Playback
import Testing
import TestSupport

/// Against a real (private) PulseAudio: the stream is tagged as music for the sound server, and
/// a phone call corking it arrives as pause and resume requests.
@Suite struct SoundServerTests {
    @Test(.enabled(if: SoundServer.isInstalled))
    func callCorksMusicAndAsksToPauseThenResume() async throws {
        let media = try MediaFactory()
        let directory = media.directory.path
        let server = try await offPool { try SoundServer(in: directory) }
        defer { server.stop() }
        // Long enough to still be playing when the call comes on a loaded machine (6 s ran out).
        let music = try media.wav("music.wav", frames: 44_100 * 30) { frame in
            let value = Int16(4_000 * sin(Double(frame) * 2 * .pi * 440 / 44_100))
            return (value, value)
        }
        let application = ApplicationIdentity(name: "Linnet Test", id: "org.example.LinnetTest", iconName: "linnet-test")
        let engine = GStreamerEngine(output: .description("pulsesink server=\(server.address)"), application: application)
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(music)
        engine.play()
        let playing = try await log.wait(for: "playing") { $0.isState(.playing) }

        let address = server.address
        let inputs = try await offPool { try ExternalTool.run("pactl", ["-s", address, "list", "sink-inputs"]) }
        #expect(inputs.stdout.contains("media.role = \"music\""))
        #expect(inputs.stdout.contains("application.name = \"Linnet Test\""))
        #expect(inputs.stdout.contains("application.id = \"org.example.LinnetTest\""))
        #expect(inputs.stdout.contains("application.icon_name = \"linnet-test\""))

        // The call runs beside the test, the way a phone app would, and lasts until the test hangs
        // up: the sound server asks to resume only a stream that really paused, so a call ending
        // before the pause below (a fixed-length one did on a loaded machine) would never be resumed.
        let call = try StreamingTool("pacat", ["--server=\(address)", "--property=media.role=phone", "--raw", "/dev/zero"])
        defer { call.stop() }
        let paused = try await log.wait(for: "pause request", after: playing.index) {
            $0 == .soundServerRequest(.pause)
        }
        // The sound server only asks to resume a stream that really paused, so act like a
        // player: pause, then resume when asked.
        engine.pause()
        try await log.wait(for: "paused", after: paused.index) { $0.isState(.paused) }
        #expect(!log.events.contains { $0 == .soundServerRequest(.resume) }, "resumed while the call still runs")
        call.stop()
        let resume = try await log.wait(for: "resume request", after: paused.index) {
            $0 == .soundServerRequest(.resume)
        }
        engine.play()
        try await log.wait(for: "playing again", after: resume.index) { $0.isState(.playing) }
        #expect(!log.events.contains { $0.isError })
        engine.stop()
        try await log.wait(for: "stopped", after: playing.index) { $0.isState(.stopped) }
    }

    /// The user's mixer changes linnet's stream (here with `pactl`, as pavucontrol would): the
    /// engine reports each change exactly once, and neither its own setVolume/setMuted nor the
    /// server's rounding of them comes back as a change.
    @Test(.enabled(if: SoundServer.isInstalled))
    func mixerVolumeIsReportedOnceAndOwnChangesAreNotEchoed() async throws {
        let media = try MediaFactory()
        let server = try await offPool { try SoundServer(in: media.directory.path) }
        defer { server.stop() }
        // Long enough to outlast the steps below on a loaded machine: once the track ends, its
        // stream is gone and the mixer has nothing to change (a run at load ~13 got there).
        let music = try media.wav("music.wav", frames: 44_100 * 120) { frame in
            let value = Int16(4_000 * sin(Double(frame) * 2 * .pi * 440 / 44_100))
            return (value, value)
        }
        let engine = GStreamerEngine(output: .description("pulsesink server=\(server.address)"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(music)
        engine.play()
        try await log.wait(for: "playing") { $0.isState(.playing) }
        let stream = try await server.waitForStream { _ in true }

        // Our own change first, and only once the server has it, so that it is certainly older
        // than the mixer's change below.
        engine.setVolume(0.64)
        _ = try await server.waitForStream { $0.volumes.allSatisfy { $0 == 56_477 } }

        // pactl takes a linear factor like the engine's volume: 0.25 is 41285 on its scale.
        let start = log.all.count
        _ = try await offPool { try server.pactl(["set-sink-input-volume", "\(stream.index)", "0.25"]) }
        let quarter = try await log.wait(for: "mixer volume", after: start) { $0.volumeChange != nil }
        let reported = try #require(quarter.entry.event.volumeChange)
        #expect(abs(reported.volume - 0.25) < 0.001 && !reported.muted, "\(reported)")

        // An app handing the reported (rounded) value back, or the exact value the user meant:
        // neither is a change.
        engine.setVolume(reported.volume)
        engine.setVolume(0.25)

        _ = try await offPool { try server.pactl(["set-sink-input-mute", "\(stream.index)", "1"]) }
        let mute = try await log.wait(for: "mixer mute", after: quarter.index + 1) { $0.volumeChange != nil }
        // Unchanged volume is reported as the app last set it, not as the server rounded it.
        #expect(mute.entry.event.volumeChange?.volume == 0.25)
        #expect(mute.entry.event.volumeChange?.muted == true)

        engine.setMuted(false)
        _ = try await server.waitForStream { !$0.muted }

        // The last mixer change marks the end: every report the engine made is before it.
        _ = try await offPool { try server.pactl(["set-sink-input-volume", "\(stream.index)", "100%"]) }
        let full = try await log.wait(for: "mixer back to 100 %", after: mute.index + 1) { $0.volumeChange != nil }
        let changes = log.events[start...].compactMap(\.volumeChange)
        #expect(changes.count == 3, "\(changes)")
        #expect(changes.last?.muted == false)
        #expect(abs((changes.last?.volume ?? 0) - 1) < 0.001, "\(changes)")
        #expect(full.index == log.events.lastIndex { $0.volumeChange != nil })
        #expect(!log.events[..<start].contains { $0.volumeChange != nil }, "\(log.events)")
        #expect(!log.events.contains { $0.isError })
    }

    /// An alarm plays as an event sound: whoever creates the engine picks the stream's role.
    @Test(.enabled(if: SoundServer.isInstalled))
    func theCreatorChoosesTheMediaRole() async throws {
        let media = try MediaFactory()
        let server = try await offPool { try SoundServer(in: media.directory.path) }
        defer { server.stop() }
        let tone = try media.wav("alarm.wav", frames: 44_100 * 20) { frame in
            let value = Int16(4_000 * sin(Double(frame) * 2 * .pi * 880 / 44_100))
            return (value, value)
        }
        let engine = GStreamerEngine(output: .description("pulsesink server=\(server.address)"), role: .event)
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(tone)
        engine.play()
        try await log.wait(for: "playing") { $0.isState(.playing) }
        let stream = try await server.waitForStream { _ in true }
        #expect(stream.properties["media.role"] == "event")
    }
}

extension PlaybackEvent {
    fileprivate var volumeChange: (volume: Double, muted: Bool)? {
        if case .volumeChanged(let volume, let muted) = self { (volume, muted) } else { nil }
    }
}
