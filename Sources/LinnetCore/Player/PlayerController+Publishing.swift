import MPRIS
import PlayerCore

/// Publishing the machine's snapshots on MPRIS. Called by the owner on the loop thread.
extension PlayerController {
    /// Publishes `snapshot` (the server signals only what changed); a `trackList` announces a
    /// wholly new queue with TrackListReplaced.
    ///
    /// The track list is sent whole only for a replacement: single edits reach the server's own
    /// list through ``announceAdded(_:after:)`` and `removeTrack`, so a PlayPause or an edit on a
    /// 10 000-track queue does not rebuild and compare every id.
    func publish(_ snapshot: PlayerSnapshot, position: Microseconds?, trackList: [UInt64]?) {
        let apply: (inout MPRISState) -> Void = { mpris in
            mpris.show(snapshot)
            if let position { mpris.player.position = position }
        }
        if let trackList {
            let current = snapshot.current.map { TrackID.forEntry($0.entry.id) } ?? .noTrack
            server.replaceTrackList(trackList.map(TrackID.forEntry), current: current, apply)
        } else {
            assertTrackListMirrorsQueue()
            server.update(apply)
        }
    }

    /// Announces entries inserted after `afterID` (nil: at the start) on the TrackList, the
    /// first at `index`.
    func announceAdded(_ items: [TrackItem], after afterID: UInt64?, at index: Int) {
        var previous = afterID.map(TrackID.forEntry) ?? .noTrack
        for (offset, item) in items.enumerated() {
            server.addTrack(Metadata(item), after: previous, at: index + offset)
            previous = TrackID.forEntry(item.entry.id)
        }
    }

    /// The session as it would be saved now, taken on the loop thread.
    func savedSessionOnLoop() -> SavedSession {
        owner.loop.sync { owner.value.savedSession() }
    }

    /// Debug builds (the test suite) check that the incremental edits kept the published list
    /// equal to the queue's order; the O(n) comparison is compiled out of release builds.
    private func assertTrackListMirrorsQueue() {
        assert(server.currentState.trackList.tracks == owner.value.machine.queue.entries.map { TrackID.forEntry($0.id) },
               "the published track list diverged from the queue")
    }
}
