import CGStreamer
import Foundation
@testable import Playback
import Testing

/// playbin can fail a gapless switch itself: it adds the next track's uridecodebin before giving
/// it its URI, and a pipeline state change reaching it in between fails it with "No URI
/// specified to play from" (seen in a `make check` run; the audible track then stopped as if
/// broken). The race cannot be timed from a test, so its error is posted as GStreamer posts it:
/// from a uridecodebin that has no URI, while the next track is handed over. The engine must
/// not report the audible track as failed, and must still switch to the next one.
@Suite struct SwitchRaceRecoveryTests {
    @Test(.timeLimit(.minutes(1))) func aSwitchFailedByPlaybinItselfIsTriedAgain() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100 * 6)
        let second = try media.indexedWAV("second.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .description("fakesink sync=true"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.setNext(second)
        engine.play()
        let handed = try await log.wait(for: "the hand-over") { $0 == .aboutToFinish(uri: first, next: second) }
        // Paused, the hand-over stays pending however slowly a loaded machine gets here (and a
        // pause is one of the state changes that race the switch).
        engine.pause()
        try await log.wait(for: "paused", after: handed.index) { $0.isState(.paused) }
        #expect(!log.events.contains(.trackStarted(uri: second)), "too late: the switch already happened")

        let playbin = try #require(engine.current?.playbin)
        try Self.postNoURIError(on: playbin)

        let retried = try await log.wait(for: "the retry warning", after: handed.index) { event in
            if case .warning(second, let message) = event { message.contains("failed to switch") } else { false }
        }
        print("recovered with: \(retried.entry.event)")
        engine.play()
        let started = try await log.wait(for: "the second track", after: retried.index) { $0.isTrackStart(second) }
        try await log.wait(for: "the end", after: started.index) { $0.isEndOfStream }
        #expect(log.events.filter(\.isError).isEmpty, "\(log.events.filter(\.isError))")
        #expect(log.events.filter { $0.isTrackStart(first) }.count == 1, "the reload is not a new track")
    }

    /// What gsturidecodebin posts when it is set to PAUSED without a URI.
    private static func postNoURIError(on playbin: UnsafeMutablePointer<GstElement>) throws {
        let decoder = try #require(gst_element_factory_make("uridecodebin", nil))
        let decoderObject = UnsafeMutableRawPointer(gst_object_ref_sink(decoder)!).assumingMemoryBound(to: GstObject.self)
        defer { gst_object_unref(decoderObject) }
        let error = g_error_new_literal(
            gst_resource_error_quark(), gint(GST_RESOURCE_ERROR_NOT_FOUND.rawValue), "No URI specified to play from.")
        defer { g_error_free(error) }
        let message = try #require(gst_message_new_error(decoderObject, error, "gen_source_element (): no uri"))
        let bus = try #require(gst_element_get_bus(playbin))
        defer { gst_object_unref(bus) }
        gst_bus_post(bus, message)
    }
}
