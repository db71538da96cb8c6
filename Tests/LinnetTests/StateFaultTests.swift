import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// The world under linnet fails: the bus daemon dies, the state directory cannot be written, the
/// disk is full. Linnet says so, keeps playing where it can, and the last good state survives.
@Suite struct StateFaultTests {
    private func position(_ world: LinnetWorld) async throws -> Int64 {
        if case .int64(let position) = try await world.player("Position") { return position }
        return -1
    }

    private func queueIDs(_ world: LinnetWorld) async throws -> [UInt64] {
        let tracks = try await world.proxy(MPRISNames.trackList).property("Tracks").decode(as: [ObjectPath].self)
        return SessionFileSnapshot.entryIDs(ofTracks: tracks.map(\.rawValue))
    }

    /// Adds `track` at the end of the queue.
    private func append(_ world: LinnetWorld, _ track: String) async throws {
        try await world.proxy(MPRISNames.trackList).call(
            "AddTrack", [.string(URL(fileURLWithPath: track).absoluteString), .objectPath(ObjectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")), .boolean(false)])
    }

    /// Waits until playback moves on by at least `microseconds` from now.
    private func waitForPlaybackToAdvance(_ world: LinnetWorld, by microseconds: Int64) async throws {
        let start = try await position(world)
        try await world.waitUntil("playback to go on") {
            let playing = try await world.player("PlaybackStatus") == .string("Playing")
            let now = try await position(world)
            return playing && now >= start + microseconds
        }
    }

    @Test func busDaemonDyingSavesTheSessionAndExits70() async throws {
        let world = try LinnetWorld()
        let a = try await world.makeTrack("bus1.ogg", title: "Bus One", seconds: 20)
        let b = try await world.makeTrack("bus2.ogg", title: "Bus Two", seconds: 20)
        try await world.start(["--no-resume", a])
        try await world.waitUntil("playing past 1 s") { try await position(world) > 1_000_000 }
        // The bus dies right after an edit: only the save on the way out can record it.
        try await append(world, b)
        let ids = try await queueIDs(world)
        world.bus.stop()
        let status = try await world.waitForExit()
        #expect(status == 70, "exit status \(String(describing: status)); log:\n\(world.log.suffix(2000))")
        #expect(world.log.contains("the session bus went away; saving the session and exiting"))
        let saved = try SessionFileSnapshot(contentsOf: world.sessionFile)
        #expect(saved.entryIDs == ids)
        #expect(saved.position > 1_000_000, "saved position \(saved.position); log:\n\(world.log.suffix(3000))")
        #expect(strayStateFiles(in: world.sessionFile.deletingLastPathComponent()).isEmpty)
    }

    /// XDG_STATE_HOME below a regular file: the directory can never be created, whoever runs it.
    @Test func stateDirectoryThatCannotBeCreatedIsLoggedPlaybackGoesOnAndTheExitSays74() async throws {
        let world = try LinnetWorld()
        let blocker = world.home.appendingPathComponent("not-a-directory")
        try Data("a file where a directory should be".utf8).write(to: blocker)
        world.extraEnvironment["XDG_STATE_HOME"] = blocker.appendingPathComponent("state").path
        let a = try await world.makeTrack("ro.ogg", title: "Unsaved", seconds: 20)
        try await world.start(["--no-resume", a])
        try await world.waitUntil("the save failure logged") { world.log.contains("cannot save the session") }
        #expect(world.log.contains("Not a directory"), "\(world.log.suffix(2000))")
        try await waitForPlaybackToAdvance(world, by: 1_000_000)
        try await world.proxy(MPRISNames.root).call("Quit")
        // A lost final save is not a clean exit (issue 16): 74, EX_IOERR.
        #expect(try await world.waitForExit() == 74)
        #expect(world.log.contains("the final save failed (the session); exiting with status 74"), "\(world.log.suffix(2000))")
    }

    @Test(.enabled(if: TmpfsMount.isAvailable, "needs permission to mount a tmpfs"))
    func readOnlyStateDirectoryKeepsTheLastGoodSession() async throws {
        let world = try LinnetWorld()
        let mount = try TmpfsMount(at: world.home.appendingPathComponent("state"), kilobytes: 1024)
        defer { mount.unmount() }
        let a = try await world.makeTrack("rofs1.ogg", title: "Read Only One", seconds: 20)
        let b = try await world.makeTrack("rofs2.ogg", title: "Read Only Two", seconds: 20)
        try await world.start(["--no-resume", a])
        let good = try await queueIDs(world)
        try await world.waitUntil("the first save") { (try? SessionFileSnapshot(contentsOf: world.sessionFile))?.entryIDs == good }

        try mount.setReadOnly(true)
        try await append(world, b)
        try await world.waitUntil("the save failure logged") { world.log.contains("cannot save the session") }
        #expect(world.log.contains("Read-only file system"), "\(world.log.suffix(2000))")
        try await waitForPlaybackToAdvance(world, by: 1_000_000)
        #expect(try SessionFileSnapshot(contentsOf: world.sessionFile).entryIDs == good)

        // Writable again: the next change is saved.
        try mount.setReadOnly(false)
        let player = world.proxy(MPRISNames.player)
        try await player.setProperty("Volume", to: .double(0.5))
        let now = try await queueIDs(world)
        try await world.waitUntil("the save after recovery") { (try? SessionFileSnapshot(contentsOf: world.sessionFile))?.entryIDs == now }
        world.kill()
    }

    @Test(.enabled(if: TmpfsMount.isAvailable, "needs permission to mount a tmpfs"))
    func fullDiskKeepsTheLastGoodSessionAndPlaybackGoesOn() async throws {
        let world = try LinnetWorld()
        let mount = try TmpfsMount(at: world.home.appendingPathComponent("state"), kilobytes: 256)
        defer { mount.unmount() }
        let a = try await world.makeTrack("full1.ogg", title: "Full One", seconds: 20)
        let b = try await world.makeTrack("full2.ogg", title: "Full Two", seconds: 20)
        try await world.start(["--no-resume", a])
        let good = try await queueIDs(world)
        try await world.waitUntil("the first save") { (try? SessionFileSnapshot(contentsOf: world.sessionFile))?.entryIDs == good }

        let filler = try mount.fill()
        try await append(world, b)
        try await world.waitUntil("the save failure logged") { world.log.contains("cannot save the session") }
        #expect(world.log.contains("No space left on device"), "\(world.log.suffix(2000))")
        try await waitForPlaybackToAdvance(world, by: 1_000_000)
        #expect(try SessionFileSnapshot(contentsOf: world.sessionFile).entryIDs == good)
        let stray = strayStateFiles(in: world.sessionFile.deletingLastPathComponent())
        #expect(stray.isEmpty, "a failed save left \(stray)")

        // Space again: the next save goes through.
        try FileManager.default.removeItem(at: filler)
        try await world.proxy(MPRISNames.player).setProperty("Volume", to: .double(0.5))
        let now = try await queueIDs(world)
        try await world.waitUntil("the save after recovery") { (try? SessionFileSnapshot(contentsOf: world.sessionFile))?.entryIDs == now }
        world.kill()
    }
}
