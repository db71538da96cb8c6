import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

extension DesktopIntegrationTests {
    /// The real `linnet` binary playing through pulsesink into a private PulseAudio daemon: a call
    /// (a `media.role=phone` stream) interrupts it and it comes back afterwards; the sink it plays to
    /// going away pauses it, unless told to keep playing.
    @Suite(.serialized) struct DaemonSoundServerTests {
        private static func status(_ world: LinnetWorld) async throws -> DBusValue {
            try await world.player("PlaybackStatus")
        }

        @Test(.enabled(if: SoundServer.isInstalled))
        func aCallPausesLinnetOnTheBusAndItResumesWhenTheCallEnds() async throws {
            let world = try LinnetWorld()
            let directory = world.home.path
            let server = try await offPool { try SoundServer(in: directory) }
            defer { server.stop() }
            let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
            let call = try await world.makeTrack("call.ogg", title: "Call", seconds: 2)
            // Another player (not on this sound server, so no call corks it) that linnet pauses.
            let other = try await OtherPlayer("other", in: world, playing: track)
            try await world.start(
                ["--no-resume", "--focus", "pause-others", track], sink: "pulsesink server=\(server.address)")
            try await world.waitUntil("Playing") { try await Self.status(world) == .string("Playing") }
            try await other.waitForStatus("Paused")
            try await world.waitUntil("linnet's stream tagged as music") {
                try await offPool { try server.sinkInputs() }.contains { $0.properties["media.role"] == "music" }
            }

            let address = server.address
            let phone = Task {
                try await offPool {
                    try ExternalTool.run("paplay", ["--server=\(address)", "--property=media.role=phone", call])
                }
            }
            try await world.waitUntil("Paused during the call") { try await Self.status(world) == .string("Paused") }
            #expect(try await phone.value.status == 0)
            try await world.waitUntil("Playing after the call") { try await Self.status(world) == .string("Playing") }
            // The call was a pause, not an end: the other player stayed paused throughout.
            let owner = try await world.client.nameOwner(other.name)
            let statuses = world.signals.values.filter { $0.sender == owner && $0.member == "PropertiesChanged" }
                .compactMap { signal -> String? in
                    guard signal.arguments.count > 1, case .string(let status)? = signal.arguments[1]["PlaybackStatus"] else {
                        return nil
                    }
                    return status
                }
            let paused = try #require(statuses.firstIndex(of: "Paused"))
            #expect(!statuses[paused...].contains("Playing"), "\(statuses)")
            #expect(try await other.status() == "Paused")
            world.kill()
        }

        @Test(.enabled(if: SoundServer.isInstalled))
        func losingTheOutputPausesLinnet() async throws {
            let world = try LinnetWorld()
            let directory = world.home.path
            let server = try await offPool { try SoundServer(in: directory, sinks: ["headset", "speakers"]) }
            defer { server.stop() }
            let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
            try await world.start(["--no-resume", track], sink: "pulsesink server=\(server.address) device=headset")
            try await world.waitUntil("Playing") { try await Self.status(world) == .string("Playing") }
            let headset = try #require(try await offPool { try server.sinkIndex("headset") })
            try await world.waitUntil("the stream on the headset") {
                try await offPool { try server.sinkInputs() }.contains { $0.sink == headset }
            }

            try await offPool { try server.removeSink("headset") }
            try await world.waitUntil("Paused after the headset went away") {
                try await Self.status(world) == .string("Paused")
            }
            #expect(world.log.contains("the audio output went away; the sound server moved it to speakers"))
            // Playing again goes to where the server moved the stream.
            try await world.playerctl("play")
            try await world.waitUntil("Playing on the speakers") { try await Self.status(world) == .string("Playing") }
            world.kill()
        }

        @Test(.enabled(if: SoundServer.isInstalled))
        func keepPlayingWhenToldToOnRouteLoss() async throws {
            let world = try LinnetWorld()
            let directory = world.home.path
            let server = try await offPool { try SoundServer(in: directory, sinks: ["headset", "speakers"]) }
            defer { server.stop() }
            let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
            try await world.start(
                ["--no-resume", "--on-route-lost", "keep", track], sink: "pulsesink server=\(server.address) device=headset")
            try await world.waitUntil("Playing") { try await Self.status(world) == .string("Playing") }
            let headset = try #require(try await offPool { try server.sinkIndex("headset") })
            try await world.waitUntil("the stream on the headset") {
                try await offPool { try server.sinkInputs() }.contains { $0.sink == headset }
            }

            try await offPool { try server.removeSink("headset") }
            // linnet logs the move when it handles it; the status after that is the decision.
            try await world.waitUntil("linnet to notice the move") { world.log.contains("the sound server moved it to speakers") }
            #expect(try await Self.status(world) == .string("Playing"))
            world.kill()
        }
    }
}
