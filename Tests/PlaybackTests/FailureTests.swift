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
        #expect(!failure.currentTrackContinues, "the loaded track failed: the engine stops")

        engine.load(good)
        try await playToEnd(engine, log)
        // Anything still arriving from the broken file's error storm would show up by now.
        #expect(log.events.filter(\.isError).count == 1)
        #expect(log.events.contains(.trackStarted(uri: good)))
    }

    @Test func corruptQueuedTrackFailsWithoutCuttingTheCurrentOne() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100)
        let bad = try media.corrupt("bad.ogg")
        let after = try media.indexedWAV("after.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .description("fakesink sync=true"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.setNext(bad)
        let commanded = ContinuousClock.now
        engine.play()
        let failed = try await log.wait(for: "error") { $0.isError }
        guard case .error(let failure) = failed.entry.event else { return }
        print("queued corrupt file failed after \(commanded.duration(to: failed.entry.at)): \(failure.message)")
        #expect(failure.uri == bad)
        #expect(failure.currentTrackContinues, "the player must know the first track plays on")
        let end = try await log.wait(for: "end of the first track", after: failed.index) { $0.isEndOfStream }
        let firstPlayedFor = commanded.duration(to: end.entry.at)
        print("first track (1.0 s) ended after \(firstPlayedFor)")
        // Real time: the first track cannot reach its end before about 1 s; resetting on the
        // queued file's error (at about 0 s) would have cut it off there.
        #expect(firstPlayedFor >= .milliseconds(950))

        engine.load(after)
        try await playToEnd(engine, log)
        #expect(log.events.contains(.trackStarted(uri: after)))
        #expect(log.events.filter(\.isError).count == 1)
        #expect(!log.events.contains(.trackStarted(uri: bad)))
        #expect(log.events.filter { $0 == .trackStarted(uri: first) }.count == 1)
    }
}
