import DBus
import EventLoop
import Foundation
@testable import LinnetCore
import MPRIS
import Playback
import Testing
import TestSupport

/// An engine `.error` that is not for the queued next track means the engine stopped. When it
/// names a URI the player does not think is playing — a broken track already skipped, whose
/// late error crossed the player's move to the next one — the player used to log "playback
/// error for …" and stay "Playing" over a stopped engine: the queue stalled (seen once under
/// AddressSanitizer with broken.ogg). It now loads its current entry again.
@Suite struct PlayerLateErrorTests {
    @Test func anErrorForATrackNotPlayingDoesNotLeaveTheQueueStalled() async throws {
        // http URIs: the player scans only local files, so nothing but the script reaches it.
        let (broken, good, after) = ("http://127.0.0.1:9/broken.ogg", "http://127.0.0.1:9/good.ogg", "http://127.0.0.1:9/after.ogg")
        try await withTimeout(.seconds(30), "late error test") {
            try await ScriptedPlayer.run(uris: [broken, good, after], autoplay: true) { scripted in
                let (engine, player) = (scripted.engine, scripted.player)
                #expect(engine.commands.contains("load(\(broken))"))

                // broken fails as the loaded track: skipped, good loaded.
                engine.emit(.error(PlaybackFailure(uri: broken, message: "Could not determine type of stream.")))
                try await waitUntil(.seconds(10), "good loaded") { engine.commands.contains("load(\(good))") }
                engine.emit(.trackStarted(uri: good))
                let loadsBefore = engine.commands.filter { $0.hasPrefix("load(") }.count

                // broken's late duplicate: the engine stopped for it. The player brings good back.
                engine.emit(.error(PlaybackFailure(uri: broken, message: "Internal data stream error.")))
                try await waitUntil(.seconds(10), "good loaded again") {
                    engine.commands.filter { $0 == "load(\(good))" }.count == 2
            }
            let loads = engine.commands.filter { $0.hasPrefix("load(") }
            #expect(loads.count == loadsBefore + 1, "\(loads)")
            #expect(engine.commands.last(where: { ["play", "pause", "stop"].contains($0) }) == "play")
            #expect(player.queue.current?.uri == good)
            #expect(player.queue.entries.count == 3, "the queue lost entries")
            }
        }
    }

    /// A failure the engine played on from (``PlaybackFailure/currentTrackContinues``) never
    /// reloads anything, even for a URI the player did not queue: the engine dropped its next
    /// URI with the failed one, so the player hands its queued entry over again.
    @Test func aFailureTheCurrentTrackOutlivesKeepsItPlayingAndRequeuesTheNext() async throws {
        let (first, second) = ("http://127.0.0.1:9/first.ogg", "http://127.0.0.1:9/second.ogg")
        try await withTimeout(.seconds(30), "queued failure test") {
            try await ScriptedPlayer.run(uris: [first, second], autoplay: true) { scripted in
                let (engine, player) = (scripted.engine, scripted.player)
                engine.emit(.trackStarted(uri: first))
                let before = engine.commands.count

                // A decoder that is not the queued next one failed; the engine reloaded the current
                // track with nothing after it.
                engine.emit(.error(PlaybackFailure(
                    uri: "http://127.0.0.1:9/elsewhere.ogg", message: "Internal data stream error.",
                    currentTrackContinues: true)))
                try await waitUntil(.seconds(10), "next handed over again") {
                    engine.commands.dropFirst(before).contains("setNext(\(second))")
            }
            #expect(!engine.commands.dropFirst(before).contains { $0.hasPrefix("load(") || $0 == "stop" })

            // The queued next itself fails: marked, nothing queued, the current track goes on.
            engine.emit(.error(PlaybackFailure(uri: second, message: "Could not determine type of stream.",
                                               currentTrackContinues: true)))
            try await waitUntil(.seconds(10), "next withdrawn") { engine.commands.last == "setNext(nil)" }
            #expect(!engine.commands.dropFirst(before).contains { $0.hasPrefix("load(") || $0 == "stop" })
            #expect(player.queue.current?.uri == first)
            }
        }
    }
}
