import Foundation
import Playback
import Testing

/// The engine on real pipelines: what it reports and what actually reaches the sink.
@Suite struct PlaybackTests {
    @Test func playsToEndOfStreamInRealTime() async throws {
        let media = try MediaFactory()
        let uri = try media.indexedWAV("a.wav", frames: 22_050)
        let engine = GStreamerEngine(output: .description("fakesink sync=true"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        // Measured from the command: events share one loop thread with every other engine in
        // the process, so an event's arrival can be late but never early.
        let commanded = ContinuousClock.now
        engine.play()
        let playing = try await log.wait(for: "playing") { $0.isState(.playing) }
        let end = try await log.wait(for: "end of stream", after: playing.index) { $0.isEndOfStream }
        let wall = commanded.duration(to: end.entry.at)
        print("0.5 s track played in \(wall) of wall time")
        #expect(wall >= .milliseconds(490))
        let events = log.events
        #expect(events.contains(.trackStarted(uri: uri)))
        #expect(events.contains(.durationChanged(uri: uri, microseconds: 500_000)))
        #expect(!events.contains { $0.isError || $0.isWarning })
    }

    @Test func captureHoldsExactlyTheSamplesOfTheFile() async throws {
        let media = try MediaFactory()
        let uri = try media.indexedWAV("a.wav", frames: 30_000)
        let engine = GStreamerEngine(output: .description(media.captureSink("out.wav")))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        try await playToEnd(engine, log)
        let samples = try WAVFile.samples(at: media.path("out.wav"))
        #expect(samples.count == 60_000)
        let indices = stride(from: 0, to: samples.count - 1, by: 2).map {
            WAVFile.decodeIndex(left: samples[$0], right: samples[$0 + 1])
        }
        #expect(indices == Array(0..<30_000))
    }

    @Test func seekLandsWhereAsked() async throws {
        let media = try MediaFactory()
        let uri = try media.indexedWAV("a.wav", frames: 44_100)
        let engine = GStreamerEngine(output: .description(media.captureSink("out.wav")))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        engine.pause()
        try await log.wait(for: "paused") { $0.isState(.paused) }
        engine.seek(toMicroseconds: 600_000)
        let done = try await log.wait(for: "seek done") {
            if case .seekCompleted = $0 { true } else { false }
        }
        guard case .seekCompleted(let landed) = done.entry.event else { return }
        print("seek to 600000 µs reported \(landed) µs, position() \(engine.position() ?? -1) µs")
        #expect(abs(landed - 600_000) < 1_000)
        try await playToEnd(engine, log)
        let samples = try WAVFile.samples(at: media.path("out.wav"))
        let first = WAVFile.decodeIndex(left: samples[0], right: samples[1])
        print("capture after seek starts at frame \(first) (asked for 26460), \(samples.count / 2) frames")
        #expect(abs(first - 26_460) <= 1)
        #expect(abs(samples.count / 2 - (44_100 - 26_460)) <= 1)
    }

    @Test func volumeAndMuteScaleWhatIsPlayed() async throws {
        let media = try MediaFactory()
        let uri = try media.wav("dc.wav", frames: 8_820) { _ in (8_000, -8_000) }
        let engine = GStreamerEngine(output: .description(media.captureSink("half.wav")))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.setVolume(0.5)
        engine.load(uri)
        try await playToEnd(engine, log)
        let half = try WAVFile.samples(at: media.path("half.wav"))
        #expect(half.count == 17_640)
        #expect(half.allSatisfy { abs(abs(Int($0)) - 4_000) <= 1 })

        let muted = GStreamerEngine(output: .description(media.captureSink("muted.wav")))
        defer { muted.shutdown() }
        let mutedLog = EventLog(muted.events)
        muted.setMuted(true)
        muted.load(uri)
        try await playToEnd(muted, mutedLog)
        let silent = try WAVFile.samples(at: media.path("muted.wav"))
        #expect(silent.count == 17_640)
        #expect(silent.allSatisfy { $0 == 0 })
    }
}
