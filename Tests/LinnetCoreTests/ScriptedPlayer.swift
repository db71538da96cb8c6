import DBus
import Foundation
@testable import LinnetCore
import Playback
import PlayerTestKit
import TestSupport

/// The real player on a private bus, fed by a ``ScriptedEngine``.
struct ScriptedPlayer {
    let bus: PrivateBus
    let engine: ScriptedEngine
    let player: PlayerController
    /// The name the player took on the bus.
    let name: BusName

    /// Starts a player on `uris` and runs `body` with it; the player and the bus are shut down
    /// afterwards, whatever `body` does.
    static func run(
        uris: [String] = [], autoplay: Bool = false, _ body: (ScriptedPlayer) async throws -> Void
    ) async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let scratch = try ScratchDirectory()
        let engine = ScriptedEngine()
        let configuration = PlayerConfiguration(
            sessionFile: URL(fileURLWithPath: scratch.path("session.json")), playlistDirectories: [])
        let player = PlayerController(
            connection: try DBusConnection(address: bus.address), engine: engine, configuration: configuration)
        let name = try player.start(session: nil, items: uris.map { PlayableItem(uri: $0) }, autoplay: autoplay)
        defer { player.shutdown() }
        try await body(ScriptedPlayer(bus: bus, engine: engine, player: player, name: name))
    }
}
