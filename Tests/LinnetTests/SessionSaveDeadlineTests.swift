import DBus
import Foundation
import MPRIS
import Synchronization
import Testing
import TestSupport

/// A steady stream of queue edits cannot put the session save off: while a client keeps adding
/// a track every 100 ms (closer together than the save's settle delay), each state it reaches
/// still gets to disk while the stream goes on, and `kill -9` then loses only the edits made
/// since the last save, never the whole stream.
///
/// Nothing here measures time. Each checkpoint is a queue state read back over the bus (a round
/// trip, so every edit replied to is in it); the test waits, bounded, for the file to hold that
/// state while the stream, never paused by the test, goes on. A save that starves leaves the
/// file at the state from before the stream and the wait fails.
@Suite struct SessionSaveDeadlineTests {
    private static let checkpoints = 3
    /// Edits between checkpoints: at one per 100 ms, more than the longest a change may wait.
    private static let editsPerCheckpoint = 12

    @Test(.timeLimit(.minutes(5))) func aSteadyStreamOfEditsIsSavedWhileItFlows() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("stream.ogg", title: "Stream", seconds: 5)
        // Paused: the periodic save of a playing session would write the file regardless.
        try await world.start(["--no-resume", "--paused", track])
        #expect(try await world.player("PlaybackStatus") != .string("Playing"))
        let trackList = world.proxy(MPRISNames.trackList)
        let initial = try await tracks(trackList)
        try await waitUntilSaved(world, holding: SessionFileSnapshot.entryIDs(ofTracks: initial.map(\.rawValue)),
                                 "the first queue")

        let stream = EditStream(trackList: trackList, uri: URL(fileURLWithPath: track).absoluteString, after: initial)
        let editing = Task { try await stream.run() }
        defer { stream.stop() }

        var savedCheckpoint: [UInt64] = []
        for checkpoint in 1...Self.checkpoints {
            try await stream.waitForEdits(checkpoint * Self.editsPerCheckpoint)
            let target = try await tracks(trackList)
            let editsAtTarget = stream.states.count
            try await waitUntilSaved(world, holding: SessionFileSnapshot.entryIDs(ofTracks: target.map(\.rawValue)),
                                     "checkpoint \(checkpoint) (\(target.count) tracks)")
            // The stream was never stopped: it made the checkpoint's edits and goes on after the
            // save, so no pause in it let the save through.
            let editsAtSave = stream.states.count
            try await stream.waitForEdits(editsAtSave + 1)
            print("checkpoint \(checkpoint): saved after \(editsAtSave - editsAtTarget) more edits")
            savedCheckpoint = SessionFileSnapshot.entryIDs(ofTracks: target.map(\.rawValue))
        }

        stream.stop()
        try await editing.value
        let final = SessionFileSnapshot.entryIDs(ofTracks: try await tracks(trackList).map(\.rawValue))
        #expect(try await world.player("PlaybackStatus") != .string("Playing"))
        world.kill()

        let saved = try SessionFileSnapshot(contentsOf: world.sessionFile).entryIDs
        let states = stream.states.values.map { SessionFileSnapshot.entryIDs(ofTracks: $0.map(\.rawValue)) }
        #expect(states.contains(saved), "the saved queue (\(saved.count) tracks) is none of the states the edits made")
        #expect(saved.starts(with: savedCheckpoint),
                "the saved queue (\(saved.count) tracks) lost edits up to the last checkpoint (\(savedCheckpoint.count) tracks)")
        print("steady edits: \(states.count) AddTrack calls; the file held \(saved.count) of \(final.count) tracks at kill -9 "
              + "(the last checkpoint had \(savedCheckpoint.count))")
    }

    /// Waits until the session file holds at least the queue `ids` (edits only append, so a
    /// later state starts with it).
    private func waitUntilSaved(_ world: LinnetWorld, holding ids: [UInt64], _ what: String) async throws {
        try await world.waitUntil("\(what) saved") {
            (try? SessionFileSnapshot(contentsOf: world.sessionFile))?.entryIDs.starts(with: ids) == true
        }
    }
}

/// The queue's track ids as the bus shows them.
private func tracks(_ trackList: DBusProxy) async throws -> [ObjectPath] {
    try await trackList.property("Tracks").decode(as: [ObjectPath].self)
}

/// One client appending the same track to the end of the queue every 100 ms until stopped,
/// recording the queue after each edit.
private final class EditStream: Sendable {
    let states = Recorder<[ObjectPath]>()
    private let trackList: DBusProxy
    private let uri: String
    private let initial: [ObjectPath]
    private let stopped = Atomic<Bool>(false)
    private let running = Atomic<Bool>(true)
    /// A bound on a stream nobody stops (a test that failed before its end).
    private static let maximumEdits = 1000

    init(trackList: DBusProxy, uri: String, after initial: [ObjectPath]) {
        self.trackList = trackList
        self.uri = uri
        self.initial = initial
    }

    /// Whether edits are still being made.
    var isRunning: Bool { running.load(ordering: .acquiring) }

    func stop() { stopped.store(true, ordering: .releasing) }

    func run() async throws {
        defer { running.store(false, ordering: .releasing) }
        var last = initial.last ?? ObjectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")
        var made = 0
        while made < Self.maximumEdits, !stopped.load(ordering: .acquiring) {
            made += 1
            try await trackList.call("AddTrack", [.string(uri), .objectPath(last), .boolean(false)])
            // The reply came: the edit is made. The Get that follows shows it.
            let queue = try await tracks(trackList)
            states.record(queue)
            last = queue.last ?? last
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Waits until `count` edits were made (counts edits, not time: a slow machine only waits longer).
    func waitForEdits(_ count: Int) async throws {
        while states.values.count < count {
            guard isRunning else { throw TestSupportError("the edit stream ended after \(states.values.count) edits") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension Recorder {
    fileprivate var count: Int { values.count }
}
