import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

extension DesktopIntegrationTests {
    /// The real `linnet` binary as a desktop citizen: other real players paused and resumed, giving
    /// way to a player the user starts, a suspend inhibitor while playing, and track notifications,
    /// against recording portal and notification services on the same private bus.
    @Suite(.serialized) struct DaemonDesktopTests {
        @Test func pauseOthersPausesPlayersWhileLinnetPlaysAndGivesWayToOneTheUserStarts() async throws {
            let world = try LinnetWorld()
            let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 60)
            let first = try await OtherPlayer("first", in: world, playing: track)
            let second = try await OtherPlayer("second", in: world, playing: track)
            try await world.start(["--no-resume", "--paused", "--focus", "pause-others", "--resume-within", "30", mine])
            let status = { @Sendable in try await world.player("PlaybackStatus") }

            try await world.playerctl("play")
            try await first.waitForStatus("Paused")
            try await second.waitForStatus("Paused")
            #expect(try await status() == .string("Playing"))

            try await world.playerctl("pause")
            try await first.waitForStatus("Playing")
            try await second.waitForStatus("Playing")

            // linnet plays again (pausing them), then the user starts one of them by hand:
            // linnet gives way and shows Paused; when that player stops soon, linnet resumes.
            try await world.playerctl("play")
            try await first.waitForStatus("Paused")
            try await second.waitForStatus("Paused")
            try await first.call("Play")
            try await world.waitUntil("linnet to give way") { try await status() == .string("Paused") }
            #expect(try await second.status() == "Paused")
            try await first.call("Pause")
            try await world.waitUntil("linnet to resume") { try await status() == .string("Playing") }
            #expect(try await first.status() == "Paused")
            world.kill()
        }

        @Test func playersPausedByLinnetResumeWhenItQuits() async throws {
            let world = try LinnetWorld()
            let track = try await world.makeTrack("long.ogg", title: "Long", seconds: 60)
            let other = try await OtherPlayer("other", in: world, playing: track)
            try await world.start(["--no-resume", "--focus", "pause-others", track])
            try await other.waitForStatus("Paused")
            try await world.proxy(MPRISNames.root).call("Quit")
            #expect(try await world.waitForExit() == 0)
            try await world.waitUntil("the other player to resume") { try await other.status() == "Playing" }
        }

        @Test func holdsThePortalInhibitorWhilePlayingAndReleasesItAfterPausing() async throws {
            let world = try LinnetWorld()
            let portal = try RecordingPortalInhibitor(address: world.bus.address)
            let track = try await world.makeTrack("a.ogg", title: "Alpha", seconds: 60)
            try await world.start(["--no-resume", "--paused", track])
            try await world.playerctl("play")
            try await world.waitUntil("the inhibitor") { portal.active.count == 1 }
            #expect(portal.inhibitions.first?.flags == 4)
            #expect(portal.inhibitions.first?.reason == "Playing music")

            let paused = ContinuousClock.now
            try await world.playerctl("pause")
            try await world.waitUntil("the inhibitor to be released", timeout: .seconds(20)) { portal.active.isEmpty }
            let closed = try #require(portal.inhibitions.first?.closedAt)
            // Released a few seconds after the pause, not at once.
            #expect(closed - paused >= .seconds(4))
            #expect(portal.inhibitions.count == 1)
            world.kill()
        }

        @Test func notifiesOncePerTrackReplacingTheBubbleAndFollowsItsButtons() async throws {
            let world = try LinnetWorld()
            let server = try RecordingNotificationServer(address: world.bus.address)
            let a = try await world.makeTrack("a.ogg", title: "Alpha Song", artist: "Ann", seconds: 60)
            let b = try await world.makeTrack("b.ogg", title: "Beta Song", artist: "Bob", seconds: 60)
            try await world.start(["--no-resume", "--paused", "--notify", a, b])
            try await world.waitForScannedQueue()
            #expect(server.notifications.isEmpty)

            try await world.playerctl("play")
            try await world.waitUntil("a notification") { server.notifications.last?.summary == "Alpha Song" }
            try await world.playerctl("next")
            try await world.waitUntil("the second notification") { server.notifications.last?.summary == "Beta Song" }
            let calls = server.notifications
            let alpha = try #require(calls.first { $0.summary == "Alpha Song" })
            let beta = try #require(calls.last)
            #expect(alpha.body == "Ann")
            #expect(beta.body == "Bob")
            #expect(beta.replacesID == alpha.id)
            #expect(calls.allSatisfy { $0.appName == "Linnet" })
            #expect(Set(calls.map(\.id)).count == 1, "one bubble, replaced")
            #expect(beta.actions == ["previous", "Previous"])

            try server.invokeAction(id: beta.id, key: "previous")
            try await world.waitUntil("the Previous button to work") { try await world.title() == "Alpha Song" }
            try await world.waitUntil("the bubble for it") { server.notifications.last?.summary == "Alpha Song" }
            #expect(server.notifications.last?.actions == ["next", "Next"])
            world.kill()
        }
    }
}
