import Foundation
import TestSupport
import Playback
import Testing

/// An http stream served from loopback plays through and reports buffering.
@Suite struct StreamTests {
    @Test func httpStreamPlaysAndReportsBuffering() async throws {
        let media = try MediaFactory()
        try media.indexedWAV("stream.wav", frames: 22_050)
        let server = try LoopbackHTTPServer(
            body: try Data(contentsOf: URL(fileURLWithPath: media.path("stream.wav"))),
            contentType: "audio/x-wav")
        defer { server.stop() }
        let engine = GStreamerEngine(output: .description(media.captureSink("out.wav")))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(server.uri)
        try await playToEnd(engine, log)
        let buffering = log.events.compactMap { event -> Int? in
            if case .buffering(let percent) = event { percent } else { nil }
        }
        print("buffering reported: \(buffering)")
        #expect(buffering.last == 100)
        #expect(log.events.contains(.trackStarted(uri: server.uri)))
        #expect(!log.events.contains { $0.isError })
        let samples = try WAVFile.samples(at: media.path("out.wav"))
        #expect(samples.count == 44_100)
    }
}
