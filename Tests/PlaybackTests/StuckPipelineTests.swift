import Foundation
@testable import Playback
import Testing

/// A pipeline that GStreamer does not let go of is replaced, and playback goes on in the new one.
///
/// The real case (an http download cut short, where GStreamer 1.22 can deadlock in the change to
/// NULL) is covered end to end in BrokenMediaTests but happens only about 1 run in 8. Here the
/// change to NULL is made slow on purpose: an `identity` element sleeps in every buffer, so the
/// change waits for that sleep (1.5 s) while the engine's patience is 0.3 s.
@Suite struct StuckPipelineTests {
    @Test(.timeLimit(.minutes(1))) func aPipelineStuckStoppingIsReplacedAndPlaysWhatWasAskedFor() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100 * 5)
        // One buffer's worth, so it reaches its end after a single sleep.
        let second = try media.indexedWAV("second.wav", frames: 1_024)
        let engine = GStreamerEngine(settings: EngineSettings(
            output: .description("identity sleep-time=1500000 ! fakesink sync=true"),
            application: .linnet, role: .music, replayGain: .off, artCache: .standard(),
            stuckPatience: .milliseconds(300)))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.play()
        let playing = try await log.wait(for: "the first track playing") { $0.isState(.playing) }

        // Stopping the first track now waits out identity's sleep: longer than the patience.
        engine.load(second)
        let stuck = try await log.wait(for: "the stuck pipeline reported", after: playing.index) { event in
            if case .warning(_, let message) = event { message.contains("stuck") } else { false }
        }
        print("replaced after: \(stuck.entry.event)")
        let started = try await log.wait(for: "the second track starting", after: stuck.index) { $0.isTrackStart(second) }
        try await log.wait(for: "the second track playing", after: started.index) { $0.isState(.playing) }
        let end = try await log.wait(for: "the second track's end", after: started.index) { $0.isEndOfStream }

        // The new pipeline takes further commands, and one more sleep's worth passes: the old
        // pipeline let go at most one sleep after the load and must not have played the second
        // track as well (it is abandoned, then released).
        engine.load(second)
        engine.play()
        try await log.wait(for: "the second track's end again", after: end.index + 1) { $0.isEndOfStream }
        #expect(log.events.filter { $0.isTrackStart(second) }.count == 2)
        #expect(log.events.filter(\.isError).isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func shuttingDownAStuckPipelineDoesNotWaitForIt() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100 * 5)
        let engine = GStreamerEngine(settings: EngineSettings(
            output: .description("identity sleep-time=3000000 ! fakesink sync=true"),
            application: .linnet, role: .music, replayGain: .off, artCache: .standard(),
            stuckPatience: .milliseconds(200)))
        let log = EventLog(engine.events)
        engine.load(first)
        engine.play()
        try await log.wait(for: "the track playing") { $0.isState(.playing) }
        // Returns after twice the patience instead of the 3 s sleep; the warning says so.
        engine.shutdown()
        try await log.wait(for: "the pipeline left behind") { event in
            if case .warning(_, let message) = event { message.contains("did not let go") } else { false }
        }
    }
}
