import Foundation
import Playback
import Testing

/// A broken output configuration falls back with a warning instead of failing playback.
@Suite struct OutputTests {
    @Test(arguments: ["no_such_element_linnet", "pulsesink server=/nonexistent/socket"])
    func brokenOutputFallsBackWithAWarning(description: String) async throws {
        let media = try MediaFactory()
        let uri = try media.indexedWAV("a.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .description(description))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        try await playToEnd(engine, log)
        let warnings = log.events.compactMap { event -> String? in
            if case .warning(nil, let message) = event { message } else { nil }
        }
        print("fallback warnings: \(warnings)")
        #expect(warnings.first?.contains(description) == true)
        #expect(!log.events.contains { $0.isError })
    }

    @Test func nullOutputPlaysSilentlyWithoutWarnings() async throws {
        let media = try MediaFactory()
        let uri = try media.indexedWAV("a.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .null)
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(uri)
        try await playToEnd(engine, log)
        #expect(!log.events.contains { $0.isWarning || $0.isError })
    }
}
