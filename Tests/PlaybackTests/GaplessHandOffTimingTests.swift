import CGStreamer
import Foundation
@testable import Playback
import Synchronization
import Testing
import TestSupport

/// The gapless switch must not overlap a state change of the whole pipeline (see
/// `GaplessHandOffGate`): a short first track drains while GStreamer is still
/// finishing PAUSED→PLAYING on a thread of its own, and playbin's group switch on the streaming
/// thread raced it (under AddressSanitizer: an input-selector disposed while PLAYING, and
/// likely "No URI specified to play from" in `GaplessTests`).
/// A bare playbin with the engine's feeder, and a second about-to-finish handler — it runs
/// after the feeder, just before playbin switches — that records whether a state change is
/// still under way at that moment. Without the wait it was, in every run measured.
@Suite struct GaplessHandOffTimingTests {
    @Test(.timeLimit(.minutes(1))) func theSwitchComesAfterThePipelineReachedPlaying() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("a.wav", frames: 22_050)
        let second = try media.indexedWAV("b.wav", frames: 22_050)
        let outcome = try await offPool { try HandOffProbe().run(first: first, next: second) }
        #expect(outcome.handOvers >= 1, "\(outcome)")
        #expect(outcome.pendingAtSwitch == GST_STATE_VOID_PENDING.rawValue, "a state change was still under way: \(outcome)")
        #expect(outcome.stateAtSwitch == GST_STATE_PLAYING.rawValue, "\(outcome)")
        #expect(outcome.errors.isEmpty, "\(outcome.errors)")
        #expect(outcome.streamsStarted >= 2 && outcome.ended, "\(outcome)")
    }
}

private final class HandOffProbe: @unchecked Sendable {
    struct Outcome: Sendable, CustomStringConvertible {
        var handOvers = 0
        var stateAtSwitch: UInt32 = 0
        var pendingAtSwitch: UInt32 = 0
        var streamsStarted = 0
        var errors: [String] = []
        var ended = false
        var description: String {
            "hand-overs \(handOvers), state at switch \(stateAtSwitch) pending \(pendingAtSwitch), "
                + "streams \(streamsStarted), ended \(ended), errors \(errors)"
        }
    }

    private let atSwitch = Mutex<(count: Int, state: UInt32, pending: UInt32)>((0, 0, 0))

    func run(first: String, next: String) throws -> Outcome {
        GStreamerRuntime.ensureInitialized()
        guard let made = gst_element_factory_make("playbin", nil),
              let sink = gst_element_factory_make("fakesink", nil) else { throw MediaError("no playbin or fakesink") }
        let playbin = UnsafeMutableRawPointer(gst_object_ref_sink(made)!).assumingMemoryBound(to: GstElement.self)
        defer { gst_object_unref(playbin) }
        sink.set("sync", true)
        playbin.set("audio-sink", element: sink)
        playbin.set("flags", UInt32(0x02))
        let handoff = StreamingHandoff()
        _ = handoff.reset(feeding: first)
        handoff.setNext(next)
        _ = GaplessFeeder.install(on: playbin, sink: sink, handoff: handoff) { _, _, _ in }
        _ = linnet_gst_connect_about_to_finish(playbin, { playbin, data in
            guard let playbin, let data else { return }
            Unmanaged<HandOffProbe>.fromOpaque(data).takeUnretainedValue().recordSwitch(playbin)
        }, Unmanaged.passRetained(self).toOpaque(), { data, _ in
            if let data { Unmanaged<HandOffProbe>.fromOpaque(data).release() }
        })
        defer { gst_element_set_state(playbin, GST_STATE_NULL) }

        playbin.set("uri", first)
        gst_element_set_state(playbin, GST_STATE_PLAYING)
        var outcome = Outcome()
        let bus = gst_element_get_bus(playbin)
        defer { gst_object_unref(bus) }
        let watched = GstMessageType(
            rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_STREAM_START.rawValue)
        while !outcome.ended, outcome.errors.isEmpty,
              let message = gst_bus_timed_pop_filtered(bus, 10_000_000_000, watched) {
            defer { gst_message_unref(message) }
            switch message.pointee.type {
            case GST_MESSAGE_STREAM_START: outcome.streamsStarted += 1
            case GST_MESSAGE_EOS: outcome.ended = true
            default:
                var error: UnsafeMutablePointer<GError>?
                gst_message_parse_error(message, &error, nil)
                outcome.errors.append(error.map { String(cString: $0.pointee.message) } ?? "unknown error")
                if let error { g_error_free(error) }
            }
        }
        (outcome.handOvers, outcome.stateAtSwitch, outcome.pendingAtSwitch) = atSwitch.withLock { ($0.count, $0.state, $0.pending) }
        return outcome
    }

    /// Runs on the streaming thread after the feeder, right before playbin switches groups.
    /// Only the first call is the switch to `next`: the second track asks again when it drains.
    private func recordSwitch(_ playbin: UnsafeMutablePointer<GstElement>) {
        var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        _ = gst_element_get_state(playbin, &state, &pending, 0)
        atSwitch.withLock {
            if $0.count == 0 { $0.state = state.rawValue; $0.pending = pending.rawValue }
            $0.count += 1
        }
    }
}
