import DBus
import EventLoop
import Foundation
@testable import LinnetCore
import MPRIS
import Playback
import Synchronization
import Testing
import TestSupport

/// The real player on a private bus, fed by a scripted engine: volume changes the sound server
/// reports reach MPRIS Volume with PropertiesChanged, and never go back to the engine.
@Suite struct PlayerMixerVolumeTests {
    @Test func mixerVolumeReachesMPRISVolumeAndIsNotSentBackToTheEngine() async throws {
        try await withTimeout(.seconds(30), "mixer volume test") {
            try await ScriptedPlayer.run { scripted in
                let (bus, engine, player, name) = (scripted.bus, scripted.engine, scripted.player, scripted.name)

                let clientLoop = EventLoop(name: "mixer-volume.client")
                defer { clientLoop.stop() }
                let client = try DBusConnection(address: bus.address, loop: clientLoop)
                let volumes = Recorder<Double>()
                let subscription = try client.subscribe(MatchRule(path: MPRISNames.objectPath)) { signal in
                    if let volume = signal.changedVolume { volumes.record(volume) }
                }
                defer { subscription.cancel() }
                let proxy = DBusProxy(
                    connection: client, destination: name, path: MPRISNames.objectPath, interface: MPRISNames.player)
                let commandsAtStart = engine.commands

                engine.emit(.volumeChanged(volume: 0.25, muted: false))
                try await volumes.wait(forCount: 1)
                #expect(try await proxy.property("Volume") == .double(0.25))

                // Muted in the mixer: clients show what is heard, the session keeps the level.
                engine.emit(.volumeChanged(volume: 0.25, muted: true))
                try await volumes.wait(forCount: 2)
                #expect(try await proxy.property("Volume") == .double(0))
                #expect(player.savedSessionOnLoop().volume == 0.25)

                engine.emit(.volumeChanged(volume: 0.25, muted: false))
                try await volumes.wait(forCount: 3)
                #expect(volumes.values == [0.25, 0, 0.25])
                // Nothing the mixer reported was set back on the engine: no loop to start.
                #expect(engine.commands == commandsAtStart)

                // A client setting Volume while muted wants to hear it.
                engine.emit(.volumeChanged(volume: 0.25, muted: true))
                try await volumes.wait(forCount: 4)
                try await proxy.setProperty("Volume", to: .double(0.5))
                try await volumes.wait(forCount: 5)
                #expect(volumes.values == [0.25, 0, 0.25, 0, 0.5])
                #expect(engine.commands == commandsAtStart + ["setVolume(0.5)", "setMuted(false)"])
            }
        }
    }
}

extension DBusSignal {
    /// Volume from a Player PropertiesChanged, if it carries one.
    fileprivate var changedVolume: Double? {
        guard member == "PropertiesChanged", arguments.first == .string(MPRISNames.player.rawValue),
              arguments.count > 1, case .dictionary(_, _, let entries) = arguments[1] else { return nil }
        for entry in entries where entry.key == .string("Volume") {
            if case .double(let volume) = entry.value.unwrapped { return volume }
        }
        return nil
    }
}

extension Recorder where Value == Double {
    /// Waits until `count` values were recorded (test-side polling; the player never polls).
    fileprivate func wait(forCount count: Int) async throws {
        while values.count < count { try await Task.sleep(for: .milliseconds(5)) }
    }
}
