import Foundation
import Playback
import Testing
import TestSupport

/// An http download that ends before its declared Content-Length is an error the engine
/// reports and recovers from: the pipeline goes back to NULL and the next URI plays.
@Suite struct CutShortStreamTests {
    /// Repeated because the teardown after the error is racy by nature (souphttpsrc's and
    /// multiqueue's threads are still winding down when the pipeline goes to NULL).
    @Test(.timeLimit(.minutes(3)))
    func downloadCutShortOfItsLengthIsReportedAndTheNextURIPlays() async throws {
        let media = try MediaFactory()
        let streamed = try await media.ogg("cut.ogg", buffers: 350, tags: "title=Cut")
        let body = try Data(contentsOf: URL(string: streamed)!)
        let good = try media.indexedWAV("after.wav", frames: 2_205)
        let rounds = ProcessInfo.processInfo.environment["LINNET_CUT_SHORT_ROUNDS"].flatMap(Int.init) ?? 4
        for round in 1...rounds {
            let server = try LoopbackHTTPServer(body: body, contentType: "audio/ogg", behaviour: .cutShort(bytes: body.count / 3))
            defer { server.stop() }
            let engine = GStreamerEngine(output: .description("fakesink sync=true"))
            defer { engine.shutdown() }
            let log = EventLog(engine.events)
            engine.load(server.uri)
            engine.play()
            let failed = try await log.wait(for: "the cut-short stream's error (round \(round))", timeout: .seconds(30)) { $0.isError }
            guard case .error(let failure) = failed.entry.event else { return }
            #expect(failure.uri == server.uri)
            engine.load(good)
            try await playToEnd(engine, log)
            #expect(log.events.contains(.trackStarted(uri: good)))
        }
    }
}
