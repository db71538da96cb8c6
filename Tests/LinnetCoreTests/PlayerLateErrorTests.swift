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
        try await withTimeout(.seconds(30), "late error test") {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let scratch = try ScratchDirectory()
            let engine = ScriptedEngine()
            let configuration = PlayerConfiguration(
                sessionFile: URL(fileURLWithPath: scratch.path("session.json")), playlistDirectories: [])
            let player = PlayerController(
                connection: try DBusConnection(address: bus.address), engine: engine, configuration: configuration)
            // http URIs: the player scans only local files, so nothing but the script reaches it.
            let (broken, good, after) = ("http://127.0.0.1:9/broken.ogg", "http://127.0.0.1:9/good.ogg", "http://127.0.0.1:9/after.ogg")
            _ = try player.start(session: nil, items: [broken, good, after].map { PlayableItem(uri: $0) }, autoplay: true)
            defer { player.shutdown() }
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
