import MPRIS

extension PlayerController {
    /// Publishes `state` on MPRIS (the server signals only what changed) and schedules a save.
    /// `replacingTrackList` announces a wholly new queue with TrackListReplaced.
    ///
    /// The track list is built here only for a replacement: single edits reach the server's own
    /// list through `addTrack`/`removeTrack` (see `announceAdded`, `removeTrack(_:)`), so a
    /// PlayPause or an edit on a 10 000-track queue does not rebuild and compare every id.
    func publish(_ state: State, replacingTrackList: Bool = false, position: Microseconds? = nil) {
        assertTrackListMirrorsQueue(state, replacing: replacingTrackList)
        let apply: (inout MPRISState) -> Void = { mpris in
            let hasCurrent = state.queue.current != nil
            mpris.player.playbackStatus = state.intent
            mpris.player.metadata = self.currentMetadata(state)
            mpris.player.volume = state.muted ? 0 : state.volume
            mpris.player.rate = state.rate
            mpris.player.loopStatus = LoopStatus(state.queue.repeatMode)
            mpris.player.shuffle = state.queue.isShuffled
            mpris.player.canGoNext = state.queue.canAdvance
            mpris.player.canGoPrevious = state.queue.canRetreat
            mpris.player.canPlay = hasCurrent
            mpris.player.canPause = hasCurrent
            mpris.player.canSeek = hasCurrent
            if let position { mpris.player.position = position }
            mpris.playlists.activePlaylist = state.activePlaylist
            self.applyOverlay(&mpris)
        }
        if replacingTrackList {
            let tracks = state.queue.entries.map { TrackID.forEntry($0.id) }
            let current = state.queue.current.map { TrackID.forEntry($0.id) } ?? .noTrack
            server.replaceTrackList(tracks, current: current, apply)
        } else {
            server.update(apply)
        }
        saver.scheduleSave(snapshotProvider)
        saver.setPlaying(state.intent == .playing, snapshot: snapshotProvider)
        syncDesktop(state)
    }

    /// Saves the session once changes settle, for changes that publish nothing (a seek: without
    /// it, a crash right after a long seek would lose the jump, not just a few seconds).
    func saveSoon() {
        saver.scheduleSave(snapshotProvider)
    }

    /// Debug builds (the test suite) check that the incremental edits kept the published list
    /// equal to the queue's order; the O(n) comparison is compiled out of release builds.
    private func assertTrackListMirrorsQueue(_ state: State, replacing: Bool) {
        assert(replacing || server.currentState.trackList.tracks == state.queue.entries.map { TrackID.forEntry($0.id) },
               "the published track list diverged from the queue")
    }

    /// Takes a snapshot later without keeping the player alive; nil once it is gone.
    private var snapshotProvider: @Sendable () -> SavedSession? {
        { [weak self] in self?.snapshot() }
    }
}

extension LoopStatus {
    /// The MPRIS loop status for a queue repeat mode.
    init(_ mode: RepeatMode) {
        switch mode {
        case .none: self = .none
        case .track: self = .track
        case .playlist: self = .playlist
        }
    }
}

extension RepeatMode {
    /// The queue repeat mode for an MPRIS loop status.
    init(_ status: LoopStatus) {
        switch status {
        case .none: self = .none
        case .track: self = .track
        case .playlist: self = .playlist
        }
    }
}
