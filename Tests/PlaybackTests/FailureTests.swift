import Foundation
import Playback
import Testing

/// Broken input produces one error for its URI and never stalls the engine.
@Suite struct FailureTests {
    @Test(arguments: ["corrupt", "missing"])
    func badFileYieldsOneErrorAndTheNextFilePlays(kind: String) async throws {
        let media = try MediaFactory()
        let bad = kind == "corrupt" ? try media.corrupt("bad.ogg") : media.uri("missing.ogg")
        let good = try media.indexedWAV("good.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .description("fakesink"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(bad)
        engine.play()
        let failed = try await log.wait(for: "error") { $0.isError }
        guard case .error(let failure) = failed.entry.event else { return }
        print("\(kind) file: \(failure.message)")
        #expect(failure.uri == bad)

        engine.load(good)
        try await playToEnd(engine, log)
        // Anything still arriving from the broken file's error storm would show up by now.
        #expect(log.events.filter(\.isError).count == 1)
        #expect(log.events.contains(.trackStarted(uri: good)))
    }

    @Test func corruptQueuedTrackYieldsOneErrorAndTheEngineRecovers() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 8_820)
        let bad = try media.corrupt("bad.ogg")
        let after = try media.indexedWAV("after.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .description("fakesink sync=true"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.setNext(bad)
        engine.play()
        let failed = try await log.wait(for: "error") { $0.isError }
        guard case .error(let failure) = failed.entry.event else { return }
        print("queued corrupt file: \(failure.message); events before: \(log.events.prefix(failed.index).count)")
        #expect(failure.uri == bad)

        engine.load(after)
        engine.play()
        try await log.wait(for: "end of the next good file", after: failed.index) { $0.isEndOfStream }
        #expect(log.events.filter(\.isError).count == 1)
        #expect(log.events.contains(.trackStarted(uri: after)))
    }
}
