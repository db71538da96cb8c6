import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

extension DesktopIntegrationTests {
    /// What linnet changes in other players survives its `kill -9`: the next linnet started on the
    /// same state folder puts back each volume it ducked and resumes each player it paused, when
    /// the player is still as linnet left it, and never ducks from a level it set itself. The
    /// other players are real: another linnet under another name, and mpv where installed.
    @Suite(.serialized) struct FocusJournalTests {
        /// linnet ducks `other` (Volume 0.8 → 0.24), is killed, and a new linnet puts 0.8 back;
        /// playing again ducks from 0.8, not from 0.24.
        private static func duckKillRestart(_ world: LinnetWorld, _ other: OtherPlayer, track: String) async throws {
            try await other.setVolume(0.8)
            let arguments = ["--no-resume", "--focus", "duck", "--duck-level", "0.3"]
            try await world.start(arguments + [track])
            try await world.waitUntil("the other player ducked") { abs(try await other.volume() - 0.24) < 0.001 }
            world.kill()
            // Nobody put it back: linnet died without a word.
            #expect(abs(try await other.volume() - 0.24) < 0.001)

            try await world.start(arguments + ["--paused", track])
            try await world.waitUntil("the volume put back") { abs(try await other.volume() - 0.8) < 0.001 }
            // Logged once the other player's reply is back, which can come after the test saw
            // the new volume: the recovery runs after the bus name.
            try await world.waitUntil("the put-back logged") { world.log.contains("volume put back to 0.8") }
            try await world.playerctl("play")
            try await world.waitUntil("ducked again from its own level") { abs(try await other.volume() - 0.24) < 0.001 }
            try await world.proxy(MPRISNames.root).call("Quit")
            #expect(try await world.waitForExit() == 0)
            #expect(abs(try await other.volume() - 0.8) < 0.001)
        }

        @Test(.timeLimit(.minutes(2)))
        func aVolumeDuckedWhenLinnetWasKilledIsPutBackAtTheNextStart() async throws {
            let world = try LinnetWorld()
            let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
            let other = try await OtherPlayer("other", in: world, playing: long)
            try await Self.duckKillRestart(world, other, track: mine)
        }

        @Test(.enabled(if: OtherPlayer.mpvIsInstalled), .timeLimit(.minutes(2)))
        func mpvDuckedWhenLinnetWasKilledGetsItsVolumeBack() async throws {
            let world = try LinnetWorld()
            let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
            let mpv = try await OtherPlayer.mpv(in: world, playing: long)
            try await Self.duckKillRestart(world, mpv, track: mine)
        }

        /// An alarm pauses the other players (under the default `mix` too); linnet is killed
        /// while it rings; the next linnet resumes them. That alarm was never answered, so it
        /// rings again at that start and pauses them again: they play once it is stopped.
        private static func ringKillRestart(_ world: LinnetWorld, _ other: OtherPlayer, track: String) async throws {
            try await world.start(["--no-resume", track] + world.effectsArguments)
            #expect(try await world.cli("alarm", "+1s", "--label", "Wake").status == 0)
            try await world.waitUntil("the alarm ringing") { world.clockSignals("AlarmRinging").count == 1 }
            try await other.waitForStatus("Paused")
            world.kill()
            #expect(try await other.status() == "Paused")

            try await world.start(["--no-resume", "--paused", track] + world.effectsArguments)
            // The journal is undone first; the ring comes after (its focus request queues behind
            // the recovery), so how long the player plays in between is up to the scheduler.
            try await world.waitUntil("the journal undone") {
                world.log.contains("\(other.name.rawValue), changed by a linnet that did not exit cleanly: resumed")
            }
            try await world.waitUntil("the alarm ringing again") { world.clockSignals("AlarmRinging").count == 2 }
            try await other.waitForStatus("Paused")
            try await world.playerctl("stop")
            try await world.waitUntil("the alarm dismissed") { try await world.listedAlarms().isEmpty }
            try await other.waitForStatus("Playing")
            world.kill()
        }

        @Test(.timeLimit(.minutes(2)))
        func aPlayerPausedByARingingAlarmWhenLinnetWasKilledPlaysAgainAtTheNextStart() async throws {
            let world = try LinnetWorld()
            let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
            let other = try await OtherPlayer("other", in: world, playing: long)
            try await Self.ringKillRestart(world, other, track: mine)
        }

        @Test(.enabled(if: OtherPlayer.mpvIsInstalled), .timeLimit(.minutes(2)))
        func mpvPausedByARingingAlarmWhenLinnetWasKilledPlaysAgain() async throws {
            let world = try LinnetWorld()
            let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
            let mpv = try await OtherPlayer.mpv(in: world, playing: long)
            try await Self.ringKillRestart(world, mpv, track: mine)
        }

        /// The player linnet ducked is gone and another process took its name: even at the very
        /// level linnet set, its volume is its own.
        @Test(.timeLimit(.minutes(2)))
        func anotherProcessUnderTheSameNameIsLeftAlone() async throws {
            let world = try LinnetWorld()
            let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
            let other = try await OtherPlayer("other", in: world, playing: long)
            try await other.setVolume(0.8)
            try await world.start(["--no-resume", "--focus", "duck", "--duck-level", "0.3", mine])
            try await world.waitUntil("the other player ducked") { abs(try await other.volume() - 0.24) < 0.001 }
            world.kill()
            other.kill()
            let successor = try await OtherPlayer("other", in: world, playing: long)
            try await successor.setVolume(0.24)

            try await world.start(["--no-resume", "--paused", mine])
            try await world.waitUntil("the journal read") { world.log.contains("left alone (another player holds the name now)") }
            #expect(try await successor.volume() == 0.24)
            world.kill()
        }

        /// The ducked player hangs through the next start: its entry stays in the journal (it
        /// used to be cleared with the rest), and the start after puts the volume back.
        @Test(.timeLimit(.minutes(2)))
        func aPlayerThatDoesNotAnswerAtTheNextStartIsPutBackAtTheOneAfter() async throws {
            let world = try LinnetWorld()
            let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
            let other = try await OtherPlayer("other", in: world, playing: long)
            try await other.setVolume(0.8)
            try await world.start(["--no-resume", "--focus", "duck", "--duck-level", "0.3", mine])
            try await world.waitUntil("the other player ducked") { abs(try await other.volume() - 0.24) < 0.001 }
            world.kill()

            other.freeze()
            try await world.start(["--no-resume", "--paused", mine])
            try await world.waitUntil("the recovery given up") { world.log.contains("tried again at the next start") }
            world.kill()
            other.thaw()
            #expect(abs(try await other.volume() - 0.24) < 0.001)

            try await world.start(["--no-resume", "--paused", mine])
            try await world.waitUntil("the volume put back") { abs(try await other.volume() - 0.8) < 0.001 }
            try await world.waitUntil("the put-back logged") { world.log.contains("volume put back to 0.8") }
            world.kill()
            other.kill()
        }

        /// The user changed the volume after linnet was killed: the next start leaves it.
        @Test(.timeLimit(.minutes(2)))
        func aVolumeTheUserChangedSinceIsLeftAlone() async throws {
            let world = try LinnetWorld()
            let long = try await world.makeTrack("other.ogg", title: "Other", seconds: 120)
            let mine = try await world.makeTrack("mine.ogg", title: "Mine", seconds: 120)
            let other = try await OtherPlayer("other", in: world, playing: long)
            try await other.setVolume(0.8)
            try await world.start(["--no-resume", "--focus", "duck", "--duck-level", "0.3", mine])
            try await world.waitUntil("the other player ducked") { abs(try await other.volume() - 0.24) < 0.001 }
            world.kill()
            try await other.setVolume(0.5)

            try await world.start(["--no-resume", "--paused", mine])
            try await world.waitUntil("the journal read") { world.log.contains("left alone (its volume was changed)") }
            #expect(try await other.volume() == 0.5)
            world.kill()
        }
    }
}
