@testable import DesktopClients
import DBus
import Foundation
import LinnetCore
import Logging
import Testing
import TestSupport

extension DesktopIntegrationTests {
    /// The focus coordinator against real MPRIS players: other `linnet` processes under other names
    /// on one private bus, playing in real time.
    @Suite(.serialized) struct AudioFocusCoordinatorTests {
        private static let logger = Logger(label: "test.focus")

        /// Made off the cooperative pool: starting it makes blocking round trips to the bus.
        private static func coordinator(
            _ world: LinnetWorld, policy: FocusPolicy, resumeWindow: Duration = .seconds(30)
        ) async throws -> AudioFocusCoordinator {
            var settings = DesktopSettings()
            settings.focusPolicy = policy
            settings.duckLevel = 0.25
            settings.resumeWindow = resumeWindow
            settings.callTimeout = .seconds(1)
            let (address, configured) = (world.bus.address, settings)
            return try await offPool {
                let focus = AudioFocusCoordinator(
                    connection: try DBusConnection(address: address), settings: configured, logger: logger)
                focus.start()
                return focus
            }
        }

        /// Waits until the coordinator follows `names` with the given statuses.
        private static func waitForPlayers(_ focus: AudioFocusCoordinator, _ expected: [String: String]) async throws {
            try await waitUntil(.seconds(15), "the coordinator to see \(expected)") {
                let known = await focus.players()
                return expected.allSatisfy { known[$0.key] == $0.value }
            }
        }

        @Test func pauseOthersPausesPlayingPlayersAndResumesThem() async throws {
            try await withTimeout(.seconds(90), "pause-others test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
                let first = try await OtherPlayer("first", in: world, playing: track)
                let second = try await OtherPlayer("second", in: world, playing: track)
                let idle = try await OtherPlayer("idle", in: world, playing: track, paused: true)
                // Named like linnet: never touched.
                let sibling = try await OtherPlayer("linnet.sibling", in: world, playing: track)
                let focus = try await Self.coordinator(world, policy: .pauseOthers)
                try await Self.waitForPlayers(focus, [
                    first.name.rawValue: "Playing", second.name.rawValue: "Playing", idle.name.rawValue: "Paused",
                ])
                #expect(await focus.players()[sibling.name.rawValue] == nil)

                focus.acquire(.music)
                try await first.waitForStatus("Paused")
                try await second.waitForStatus("Paused")
                // Acquiring again changes nothing.
                focus.acquire(.music)
                await focus.settle()
                #expect(try await sibling.status() == "Playing")

                focus.release(.music)
                try await first.waitForStatus("Playing")
                try await second.waitForStatus("Playing")
                await focus.settle()
                // The one that was paused before linnet played stays paused.
                #expect(try await idle.status() == "Paused")
                #expect(try await sibling.status() == "Playing")
            }
        }

        /// The daemon starts playing while the coordinator is still surveying the bus: players
        /// found playing then were there first, so they are paused, and linnet does not give way.
        @Test func acquiringBeforeTheSurveyEndsPausesRatherThanGivesWay() async throws {
            try await withTimeout(.seconds(90), "early acquire test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
                let first = try await OtherPlayer("first", in: world, playing: track)
                let second = try await OtherPlayer("second", in: world, playing: track)
                let focus = try await Self.coordinator(world, policy: .pauseOthers)
                let interruptions = Recorder<FocusInterruption>()
                focus.onInterruption { interruptions.record($0) }
                focus.acquire(.music)
                try await first.waitForStatus("Paused")
                try await second.waitForStatus("Paused")
                try await Self.waitForPlayers(focus, [first.name.rawValue: "Paused", second.name.rawValue: "Paused"])
                #expect(interruptions.values.isEmpty)
                focus.release(.music)
                try await first.waitForStatus("Playing")
                try await second.waitForStatus("Playing")
            }
        }

        @Test func duckLowersVolumesAndRestoresThemExactly() async throws {
            try await withTimeout(.seconds(90), "duck test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
                let first = try await OtherPlayer("first", in: world, playing: track)
                let second = try await OtherPlayer("second", in: world, playing: track)
                let third = try await OtherPlayer("third", in: world, playing: track)
                try await first.setVolume(0.8)
                try await second.setVolume(0.37)
                try await third.setVolume(0.6)
                let focus = try await Self.coordinator(world, policy: .duck)
                try await Self.waitForPlayers(focus, [
                    first.name.rawValue: "Playing", second.name.rawValue: "Playing", third.name.rawValue: "Playing",
                ])

                focus.acquire(.music)
                try await waitUntil(.seconds(15), "ducked volumes") {
                    let volumes = try await [first.volume(), second.volume(), third.volume()]
                    return volumes == [0.8 * 0.25, 0.37 * 0.25, 0.6 * 0.25]
                }
                #expect(try await first.status() == "Playing")
                // The user turns one up meanwhile: linnet leaves that one as the user set it.
                try await third.setVolume(0.9)
                // An alarm on top of ducked music ducks nothing twice.
                focus.acquire(.alarm)
                focus.release(.alarm)
                await focus.settle()
                #expect(try await first.volume() == 0.8 * 0.25)

                focus.release(.music)
                try await waitUntil(.seconds(15), "restored volumes") {
                    let volumes = try await [first.volume(), second.volume()]
                    return volumes == [0.8, 0.37]
                }
                await focus.settle()
                #expect(try await third.volume() == 0.9)
            }
        }

        @Test func mixLeavesOthersAloneButAlarmsStillPauseThem() async throws {
            try await withTimeout(.seconds(90), "mix test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
                let first = try await OtherPlayer("first", in: world, playing: track)
                try await first.setVolume(0.5)
                let focus = try await Self.coordinator(world, policy: .mix)
                try await Self.waitForPlayers(focus, [first.name.rawValue: "Playing"])

                focus.acquire(.music)
                await focus.settle()
                #expect(try await first.status() == "Playing")
                #expect(try await first.volume() == 0.5)

                focus.acquire(.alarm)
                try await first.waitForStatus("Paused")
                focus.release(.alarm)
                try await first.waitForStatus("Playing")
                focus.release(.music)
                await focus.settle()
                #expect(try await first.volume() == 0.5)
            }
        }

        @Test func givesWayToAnotherPlayerAndResumesWhenItStopsSoon() async throws {
            try await withTimeout(.seconds(90), "yield test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
                let other = try await OtherPlayer("other", in: world, playing: track, paused: true)
                let focus = try await Self.coordinator(world, policy: .pauseOthers)
                let interruptions = Recorder<FocusInterruption>()
                focus.onInterruption { interruptions.record($0) }
                try await Self.waitForPlayers(focus, [other.name.rawValue: "Paused"])
                focus.acquire(.music)

                try await other.call("Play")
                try await waitUntil(.seconds(15), "the yield") { interruptions.values == [.yield(to: other.name.rawValue)] }
                // linnet paused as asked, so it gives up focus; the other player keeps playing.
                focus.release(.music)
                await focus.settle()
                #expect(try await other.status() == "Playing")

                try await other.call("Pause")
                try await waitUntil(.seconds(15), "the resume") { interruptions.values.last == .resume }
                focus.acquire(.music)
                await focus.settle()
                #expect(interruptions.values.count == 2)
            }
        }

        @Test func noResumeAfterTheWindowAndHungOrVanishingPlayersStallNothing() async throws {
            try await withTimeout(.seconds(90), "resume window test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
                let other = try await OtherPlayer("other", in: world, playing: track, paused: true)
                let hung = try await OtherPlayer("hung", in: world, playing: track)
                let doomed = try await OtherPlayer("doomed", in: world, playing: track)
                let focus = try await Self.coordinator(world, policy: .pauseOthers, resumeWindow: .milliseconds(300))
                let interruptions = Recorder<FocusInterruption>()
                focus.onInterruption { interruptions.record($0) }
                try await Self.waitForPlayers(focus, [
                    other.name.rawValue: "Paused", hung.name.rawValue: "Playing", doomed.name.rawValue: "Playing",
                ])
                hung.freeze()
                doomed.kill()
                focus.acquire(.music)
                await focus.settle()
                #expect(await focus.players()[doomed.name.rawValue] == nil)

                try await other.call("Play")
                try await waitUntil(.seconds(15), "the yield") { interruptions.values.count == 1 }
                #expect(await focus.givingWayTo() == other.name.rawValue)
                focus.release(.music)
                // The window passes with the other player still playing; its stopping later is
                // none of linnet's business.
                try await waitUntil(.seconds(15), "the resume window to end") { await focus.givingWayTo() == nil }
                #expect(try await other.status() == "Playing")
                try await other.call("Pause")
                await focus.settle()
                try await Self.waitForPlayers(focus, [other.name.rawValue: "Paused"])
                #expect(interruptions.values == [.yield(to: other.name.rawValue)])
                hung.kill()
            }
        }

        /// A Pause that times out is not a refusal: a busy player handles it late, and linnet must
        /// still resume it at release (it used to forget it, leaving the player paused for good).
        @Test func aPauseAnsweredTooLateIsStillUndoneAtRelease() async throws {
            try await withTimeout(.seconds(90), "late pause test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
                let slow = try await OtherPlayer("slow", in: world, playing: track)
                let focus = try await Self.coordinator(world, policy: .pauseOthers)
                try await Self.waitForPlayers(focus, [slow.name.rawValue: "Playing"])
                slow.freeze()
                focus.acquire(.music)
                // The Pause's call timeout (1 s) passes while the player is frozen.
                await focus.settle()
                slow.thaw()
                try await slow.waitForStatus("Paused")
                try await Self.waitForPlayers(focus, [slow.name.rawValue: "Paused"])
                focus.release(.music)
                try await slow.waitForStatus("Playing")
                slow.kill()
            }
        }

        /// mpv with its MPRIS plugin, where installed: a player linnet did not write.
        @Test(.enabled(if: OtherPlayer.mpvIsInstalled))
        func mpvIsPausedResumedDuckedAndRestored() async throws {
            try await withTimeout(.seconds(90), "mpv test") {
                let world = try LinnetWorld()
                let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 30)
                let mpv = try await OtherPlayer.mpv(in: world, playing: track)
                try await mpv.setVolume(0.37)

                let pausing = try await Self.coordinator(world, policy: .pauseOthers)
                try await Self.waitForPlayers(pausing, [mpv.name.rawValue: "Playing"])
                pausing.acquire(.music)
                try await mpv.waitForStatus("Paused")
                pausing.release(.music)
                try await mpv.waitForStatus("Playing")

                let ducking = try await Self.coordinator(world, policy: .duck)
                try await Self.waitForPlayers(ducking, [mpv.name.rawValue: "Playing"])
                ducking.acquire(.alarm)
                try await waitUntil(.seconds(15), "mpv ducked") { try await abs(mpv.volume() - 0.37 * 0.25) < 0.001 }
                ducking.release(.alarm)
                try await waitUntil(.seconds(15), "mpv restored") { try await abs(mpv.volume() - 0.37) < 0.000_001 }
                #expect(try await mpv.status() == "Playing")
            }
        }
    }
}
