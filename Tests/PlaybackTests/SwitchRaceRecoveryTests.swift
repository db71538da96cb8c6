import CGStreamer
import Foundation
@testable import Playback
import Synchronization
import Testing

/// playbin can fail a gapless switch itself: it adds the next track's uridecodebin before giving
/// it its URI, and a pipeline state change reaching it in between fails it with "No URI
/// specified to play from" (seen in a `make check` run; the audible track then stopped as if
/// broken). The race cannot be staged, so its error is posted as GStreamer posts it: from a
/// uridecodebin that has no URI, while the next track is handed over. The engine must
/// not report the audible track as failed, and must still switch to the next one.
@Suite struct SwitchRaceRecoveryTests {
    @Test(.timeLimit(.minutes(1))) func aSwitchFailedByPlaybinItselfIsTriedAgain() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100 * 2)
        let second = try media.indexedWAV("second.wav", frames: 4_410)
        let engine = GStreamerEngine(output: .description("fakesink sync=true"))
        defer { engine.shutdown() }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.setNext(second)
        // Posted from playbin's own about-to-finish, right after the engine handed the next
        // track over and before the switch: no test-side timing, however loaded the machine.
        let playbin = try #require(engine.current?.playbin)
        Self.errorPosted.store(false, ordering: .relaxed)
        _ = linnet_gst_connect_about_to_finish(playbin, { playbin, _ in
            guard let playbin, !SwitchRaceRecoveryTests.errorPosted.exchange(true, ordering: .relaxed) else { return }
            SwitchRaceRecoveryTests.postNoURIError(on: playbin)
        }, nil, nil)
        engine.play()

        let retried = try await log.wait(for: "the retry warning") { event in
            if case .warning(second, let message) = event { message.contains("failed to switch") } else { false }
        }
        print("recovered with: \(retried.entry.event)")
        let started = try await log.wait(for: "the second track", after: retried.index) { $0.isTrackStart(second) }
        try await log.wait(for: "the end", after: started.index) { $0.isEndOfStream }
        #expect(log.events.filter(\.isError).isEmpty, "\(log.events.filter(\.isError))")
        #expect(log.events.filter { $0.isTrackStart(first) }.count == 1, "the reload is not a new track")
    }

    /// Whether the one error was posted; the handler cannot capture context.
    private static let errorPosted = Atomic<Bool>(false)

    /// What gsturidecodebin posts when it is set to PAUSED without a URI.
    private static func postNoURIError(on playbin: UnsafeMutablePointer<GstElement>) {
        guard let decoder = gst_element_factory_make("uridecodebin", nil),
              let bus = gst_element_get_bus(playbin) else { return }
        let decoderObject = UnsafeMutableRawPointer(gst_object_ref_sink(decoder)!).assumingMemoryBound(to: GstObject.self)
        defer {
            gst_object_unref(bus)
            gst_object_unref(decoderObject)
        }
        let error = g_error_new_literal(
            gst_resource_error_quark(), gint(GST_RESOURCE_ERROR_NOT_FOUND.rawValue), "No URI specified to play from.")
        defer { g_error_free(error) }
        if let message = gst_message_new_error(decoderObject, error, "gen_source_element (): no uri") {
            gst_bus_post(bus, message)
        }
    }
}
