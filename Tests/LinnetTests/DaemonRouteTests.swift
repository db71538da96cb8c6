import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

extension DesktopIntegrationTests {
    /// The real `linnet` binary playing through pulsesink into a private PulseAudio daemon whose
    /// null sinks stand in for devices: one carrying `device.form_factor=headphone` is a pair of
    /// headphones, plain ones are speakers. Moving linnet's stream with `pactl move-sink-input`
    /// is what a user does in a mixer. (Null sinks have no ports, so a port change on one sink —
    /// headphones unplugged from a laptop's jack — cannot be staged here; the classifier tests
    /// cover that step over values shaped like libpulse's.)
    @Suite(.serialized) struct DaemonRouteTests {
        static let headphones = "device.form_factor=headphone"

        private static func status(_ world: LinnetWorld) async throws -> DBusValue {
            try await world.player("PlaybackStatus")
        }

        /// Starts a sound server with `sinks` and linnet playing a long track to `device`, and
        /// waits until the server shows linnet's music stream on it.
        private static func playing(
            _ world: LinnetWorld, sinks: [String], headphones: [String] = [], on device: String,
            default: Bool = false, _ arguments: [String] = []
        ) async throws -> (SoundServer, SoundServer.SinkInput) {
            let directory = world.home.path
            let properties = Dictionary(uniqueKeysWithValues: headphones.map { ($0, Self.headphones) })
            let server = try await offPool { try SoundServer(in: directory, sinks: sinks, properties: properties) }
            let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
            // With `default`, pulsesink is given no device: the stream goes to the server's default.
            let sinkDescription = "pulsesink server=\(server.address)" + (`default` ? "" : " device=\(device)")
            try await world.start(["--no-resume"] + arguments + [track], sink: sinkDescription)
            try await world.waitUntil("Playing") { try await Self.status(world) == .string("Playing") }
            let sink = try #require(try await offPool { try server.sinkIndex(device) })
            let isOurs: @Sendable (SoundServer.SinkInput) -> Bool = { $0.properties["media.role"] == "music" && $0.sink == sink }
            try await world.waitUntil("linnet's stream on \(device)") {
                try await offPool { try server.sinkInputs() }.contains(where: isOurs)
            }
            return (server, try #require(try await offPool { try server.sinkInputs() }.first(where: isOurs)))
        }

        @Test(.enabled(if: SoundServer.isInstalled))
        func movingTheStreamBetweenSpeakersKeepsPlaying() async throws {
            let world = try LinnetWorld()
            let (server, stream) = try await Self.playing(world, sinks: ["desk", "shelf"], on: "desk")
            defer { server.stop() }
            try await world.waitUntil("linnet to know its output") { world.log.contains("the audio output is desk") }

            try await offPool { try server.move(input: stream.index, to: "shelf") }
            try await world.waitUntil("linnet to notice the move") { world.log.contains("the audio output was moved to shelf") }
            #expect(try await Self.status(world) == .string("Playing"))
            #expect(!world.log.contains("paused: the audio output went away"))
            world.kill()
        }

        /// The user's mixer moves linnet off headphones that still exist onto speakers: a choice,
        /// so it plays on (only a vanished sink or the same sink's port leaving the headphones pauses).
        @Test(.enabled(if: SoundServer.isInstalled))
        func movingTheStreamFromHeadphonesToSpeakersThatExistPlaysOn() async throws {
            let world = try LinnetWorld()
            let (server, stream) = try await Self.playing(
                world, sinks: ["phones", "speakers"], headphones: ["phones"], on: "phones")
            defer { server.stop() }
            try await world.waitUntil("linnet to know its output") { world.log.contains("the audio output is phones") }

            try await offPool { try server.move(input: stream.index, to: "speakers") }
            try await world.waitUntil("linnet to notice the move") { world.log.contains("the audio output was moved to speakers") }
            #expect(try await Self.status(world) == .string("Playing"))
            #expect(!world.log.contains("paused: the audio output went away"))
            #expect(try await offPool { try server.sinkIndex("phones") } != nil)
            world.kill()
        }

        /// Headphones unplugged from a jack: the stream stays on the same sink, which stops being
        /// private (staged with a property change; the classifier tests cover the port itself).
        @Test(.enabled(if: SoundServer.isInstalled))
        func theSameSinkLeavingHeadphonesPauses() async throws {
            let world = try LinnetWorld()
            let (server, _) = try await Self.playing(world, sinks: ["phones"], headphones: ["phones"], on: "phones")
            defer { server.stop() }
            try await world.waitUntil("linnet to know its output") { world.log.contains("the audio output is phones") }

            try await offPool { try server.updateSinkProperty("phones", "device.form_factor", "speaker") }
            try await world.waitUntil("Paused off the headphones") { try await Self.status(world) == .string("Paused") }
            #expect(world.log.contains("the audio output left the headphones for phones"))
            world.kill()
        }

        /// Headphones that went away while linnet was stopped are no reason to pause the play
        /// pressed afterwards: it plays where the server puts the new stream.
        @Test(.enabled(if: SoundServer.isInstalled))
        func playingAfterTheHeadphonesWentAwayWhileStoppedPlaysOnTheSpeakers() async throws {
            let world = try LinnetWorld()
            let (server, _) = try await Self.playing(
                world, sinks: ["speakers", "phones"], headphones: ["phones"], on: "phones", default: true)
            defer { server.stop() }
            try await world.waitUntil("linnet to know its output") { world.log.contains("the audio output is phones") }
            try await world.playerctl("stop")
            try await world.waitUntil("Stopped") { try await Self.status(world) == .string("Stopped") }
            try await world.waitUntil("the stream gone") { try await offPool { try server.sinkInputs() }.isEmpty }
            try await offPool { try server.removeSink("phones") }

            try await world.playerctl("play")
            let speakers = try #require(try await offPool { try server.sinkIndex("speakers") })
            try await world.waitUntil("linnet's stream on the speakers") {
                try await offPool { try server.sinkInputs() }.contains { $0.sink == speakers && $0.properties["media.role"] == "music" }
            }
            try await world.waitUntil("linnet to know its new output") { world.log.contains("the audio output is speakers") }
            #expect(try await Self.status(world) == .string("Playing"))
            #expect(!world.log.contains("paused: the audio output went away"))
            world.kill()
        }

        @Test(.enabled(if: SoundServer.isInstalled))
        func losingTheHeadphonesSinkPauses() async throws {
            let world = try LinnetWorld()
            let (server, _) = try await Self.playing(
                world, sinks: ["phones", "speakers"], headphones: ["phones"], on: "phones")
            defer { server.stop() }

            try await offPool { try server.removeSink("phones") }
            try await world.waitUntil("Paused after the headphones went away") {
                try await Self.status(world) == .string("Paused")
            }
            #expect(world.log.contains("the audio output went away; the sound server moved it to speakers"))
            world.kill()
        }

        /// The headphones go away while an alarm rings (the music paused under it): after the
        /// alarm is stopped the music stays paused instead of coming back on the speakers.
        @Test(.enabled(if: SoundServer.isInstalled), .timeLimit(.minutes(2)))
        func losingTheHeadphonesDuringAnAlarmLeavesTheMusicPausedAfterIt() async throws {
            let world = try LinnetWorld()
            let (server, _) = try await Self.playing(
                world, sinks: ["phones", "speakers"], headphones: ["phones"], on: "phones", world.effectsArguments)
            defer { server.stop() }
            try await world.waitUntil("linnet to know its output") { world.log.contains("the audio output is phones") }
            #expect(try await world.cli("alarm", "+1s", "--label", "Wake").status == 0)
            try await world.waitUntil("the alarm ringing") { world.clockSignals("AlarmRinging").count == 1 }

            try await offPool { try server.removeSink("phones") }
            try await world.waitUntil("linnet to see the headphones go") {
                world.log.contains("the audio output went away: the music stays paused")
            }
            try await world.playerctl("stop")
            try await world.waitUntil("the alarm dismissed") { try await world.title() == "Long" }
            #expect(try await Self.status(world) == .string("Paused"))
            world.kill()
        }

        /// `--headphone-volume-cap 0.3`: on the headphones the stream plays at 0.3 (linear, as
        /// MPRIS Volume and pulsesink count it: 0.3 is cbrt(0.3) × 65536 on the server's cubic
        /// scale) while Volume still shows 1; on the speakers the cap lifts.
        @Test(.enabled(if: SoundServer.isInstalled))
        func theHeadphoneVolumeCapHoldsOnHeadphonesOnlyAndLeavesVolumeAlone() async throws {
            let world = try LinnetWorld()
            let (server, stream) = try await Self.playing(
                world, sinks: ["phones", "speakers"], headphones: ["phones"], on: "phones",
                ["--headphone-volume-cap", "0.3", "--on-route-lost", "keep"])
            defer { server.stop() }
            let capped = Int((cbrt(0.3) * 65536).rounded())
            try await world.waitUntil("the stream capped on the headphones") {
                let volumes = try await offPool { try server.sinkInputs() }.first { $0.index == stream.index }?.volumes ?? []
                return !volumes.isEmpty && volumes.allSatisfy { abs($0 - capped) <= 2 }
            }
            #expect(try await world.player("Volume") == .double(1))

            try await offPool { try server.move(input: stream.index, to: "speakers") }
            try await world.waitUntil("the cap lifted on the speakers") {
                let volumes = try await offPool { try server.sinkInputs() }.first { $0.index == stream.index }?.volumes ?? []
                return !volumes.isEmpty && volumes.allSatisfy { $0 == 65536 }
            }
            #expect(try await Self.status(world) == .string("Playing"))
            #expect(try await world.player("Volume") == .double(1))
            world.kill()
        }

        @Test func aHeadphoneVolumeCapOutsideZeroToOneIsBadUsage() async throws {
            let binary = LinnetWorld.binary.path
            for value in ["1.5", "-0.1", "nan", "loud"] {
                let result = try await offPool { try ExternalTool.run(binary, ["--headphone-volume-cap", value]) }
                #expect(result.status == 64, "\(value): \(result.stderr)")
            }
            let help = try await offPool { try ExternalTool.run(binary, ["--help"]) }
            #expect(help.stdout.contains("--headphone-volume-cap"))
        }

        /// Following the route is event-driven: paused on a sound server, with the route monitor
        /// connected and its stream known, linnet's loop thread does not wake at all.
        @Test(.enabled(if: SoundServer.isInstalled), .timeLimit(.minutes(1)))
        func followingTheRouteMakesNoWakeUpsWhilePaused() async throws {
            let world = try LinnetWorld()
            let (server, _) = try await Self.playing(world, sinks: ["phones"], headphones: ["phones"], on: "phones")
            defer { server.stop() }
            try await world.waitUntil("linnet to know its output") { world.log.contains("the audio output is phones") }
            try await world.playerctl("pause")
            try await world.waitUntil("Paused") { try await Self.status(world) == .string("Paused") }
            // Let the pause settle: the engine winds down, the inhibitor's release delay passes.
            try await Task.sleep(for: .seconds(7))
            let pid = try #require(world.process?.processIdentifier)
            let woken = try await ClockTimerTests.wakeUps(pid, over: .seconds(3))
            print("DaemonRoute: wake-ups per thread over 3 s, paused on PulseAudio: \(woken.sorted { $0.key < $1.key })")
            #expect(woken["linnet"] == 0)
            world.kill()
        }

        /// The cap holds for alarms too: one ringing at full volume (no ramp) into the headphones
        /// plays at the cap on its own `media.role=event` stream.
        @Test(.enabled(if: SoundServer.isInstalled))
        func theHeadphoneVolumeCapHoldsForAlarms() async throws {
            let world = try LinnetWorld()
            let directory = world.home.path
            let server = try await offPool {
                try SoundServer(in: directory, sinks: ["phones"], properties: ["phones": Self.headphones])
            }
            defer { server.stop() }
            let track = try await world.makeTrack("quiet.ogg", title: "Quiet", seconds: 60)
            let device = "pulsesink server=\(server.address) device=phones"
            try await world.start(
                ["--no-resume", "--paused", "--headphone-volume-cap", "0.3", "--effects-sink", device, track], sink: device)
            let set = try await world.cli("alarm", "+1s", "--label", "Loud", "--ramp", "0")
            #expect(set.status == 0, "\(set.stderr)")
            try await world.waitUntil("AlarmRinging") { world.clockSignals("AlarmRinging").count == 1 }
            let capped = Int((cbrt(0.3) * 65536).rounded())
            try await world.waitUntil("the alarm's stream at the cap") {
                let alarm = try await offPool { try server.sinkInputs() }.first { $0.properties["media.role"] == "event" }
                return alarm.map { !$0.volumes.isEmpty && $0.volumes.allSatisfy { abs($0 - capped) <= 2 } } ?? false
            }
            world.kill()
        }
    }
}
