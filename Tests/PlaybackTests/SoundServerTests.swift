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
        let music = try media.wav("music.wav", frames: 44_100 * 6) { frame in
            let value = Int16(4_000 * sin(Double(frame) * 2 * .pi * 440 / 44_100))
            return (value, value)
        }
        try media.wav("call.wav", frames: 44_100 * 2) { _ in (0, 0) }
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

        // The call runs beside the test, the way a phone app would.
        let callPath = media.path("call.wav")
        let call = Task {
            try await offPool {
                try ExternalTool.run("paplay", ["--server=\(address)", "--property=media.role=phone", callPath])
            }
        }
        let paused = try await log.wait(for: "pause request", after: playing.index) {
            $0 == .soundServerRequest(.pause)
        }
        // The sound server only asks to resume a stream that really paused, so act like a
        // player: pause, then resume when asked.
        engine.pause()
        try await log.wait(for: "paused", after: paused.index) { $0.isState(.paused) }
        let resume = try await log.wait(for: "resume request", after: paused.index) {
            $0 == .soundServerRequest(.resume)
        }
        #expect(try await call.value.status == 0)
        engine.play()
        try await log.wait(for: "playing again", after: resume.index) { $0.isState(.playing) }
        #expect(!log.events.contains { $0.isError })
        engine.stop()
        try await log.wait(for: "stopped", after: playing.index) { $0.isState(.stopped) }
    }
}
