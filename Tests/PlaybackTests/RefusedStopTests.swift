import Foundation
import Playback
import Testing

/// A pipeline that GStreamer refuses to take to NULL is replaced, and what was loaded plays.
///
/// In the wild the refusal is rare and timing-bound (a queued next track failing while it is
/// still trying to start; the reloaded track then never ends). Here fakesink's `state-error` makes the sink fail every
/// PAUSED→READY step, which playing never takes and every stop does, so every stop fails however
/// often it is retried. (Failing PLAYING→PAUSED instead was flaky: the pipeline can pause once
/// while it starts, and the sink's failure then came before the load the test meant to refuse.)
@Suite struct RefusedStopTests {
    @Test(.timeLimit(.minutes(1))) func aPipelineThatWillNotStopIsReplacedAndPlaysTheNewTrack() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100 * 5)
        let second = try media.indexedWAV("second.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .description("fakesink sync=true state-error=paused-to-ready"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.play()
        let firstStarted = try await log.wait(for: "the first track starting") { $0.isTrackStart(first) }
        try await log.wait(for: "playing", after: firstStarted.index) { $0.isState(.playing) }

        // Loading resets the pipeline through NULL, which the sink refuses.
        engine.load(second)
        let refused = try await log.wait(for: "the refusal reported", after: firstStarted.index) { event in
            if case .warning(_, let message) = event { message.contains("could not stop") } else { false }
        }
        print("replaced after: \(refused.entry.event)")
        let started = try await log.wait(for: "the second track starting", after: refused.index) { $0.isTrackStart(second) }
        try await log.wait(for: "the second track's end", after: started.index) { $0.isEndOfStream }
        #expect(log.events.filter { $0.isTrackStart(second) }.count == 1)
        #expect(log.events.filter(\.isError).isEmpty)
    }
}
