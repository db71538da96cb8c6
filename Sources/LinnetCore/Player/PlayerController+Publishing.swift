import MPRIS

extension PlayerController {
    /// Publishes `state` on MPRIS (the server signals only what changed) and schedules a save.
    /// `replacingTrackList` announces a wholly new queue with TrackListReplaced.
    func publish(_ state: State, replacingTrackList: Bool = false, position: Microseconds? = nil) {
        let tracks = state.queue.entries.map { TrackID.forEntry($0.id) }
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
            mpris.trackList.tracks = tracks
            mpris.playlists.activePlaylist = state.activePlaylist
            self.applyOverlay(&mpris)
        }
        if replacingTrackList {
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
