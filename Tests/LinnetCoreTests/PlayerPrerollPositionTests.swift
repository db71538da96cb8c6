import DBus
import EventLoop
import Foundation
@testable import LinnetCore
import MPRIS
import Testing
import TestSupport

/// While the engine has not started the track yet (it cannot say where it is: prerolling, which
/// took over a second under AddressSanitizer and can on a slow stream), Position stays at the
/// start instead of running on with the clock, and the session saved then says so too. Before,
/// Position passed 1 s while the engine was still at 0, and a session saved then lost the
/// difference.
@Suite struct PlayerPrerollPositionTests {
    @Test func positionDoesNotRunAheadOfAnEngineThatHasNotStarted() async throws {
        try await withTimeout(.seconds(30), "preroll position test") {
            try await ScriptedPlayer.run(uris: ["file:///music/a.ogg"], autoplay: true) { scripted in
                let clientLoop = EventLoop(name: "preroll-position.client")
                defer { clientLoop.stop() }
                let client = try DBusConnection(address: scripted.bus.address, loop: clientLoop)
                let proxy = DBusProxy(
                    connection: client, destination: scripted.name, path: MPRISNames.objectPath,
                    interface: MPRISNames.player)
                #expect(try await proxy.property("PlaybackStatus") == .string("Playing"))

                // The scripted engine never answers a position query, like one still prerolling.
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await proxy.property("Position") == .int64(0))
                #expect(scripted.player.savedSessionOnLoop().position == .zero)
            }
        }
    }
}
