/// The user's commands. While an alarm rings or a Pomodoro runs, the transport commands answer
/// them (Stop dismisses the alarm, Next snoozes it, PlayPause pauses the Pomodoro) instead of
/// the music.
extension PlayerMachine {
    mutating func route(_ command: PlayerCommand) {
        if let request = overlayAnswer(to: command) {
            if let request { emit(.clock(request)) }
            return
        }
        switch command {
        case .play: playMusic()
        case .pause: pauseMusic()
        case .playPause: if transport == .playing { pauseMusic() } else { playMusic() }
        case .stop: stopMusic()
        case .next: skip(forward: true)
        case .previous: skip(forward: false)
        case .seek(let position): seek(to: position)
        case .open(let track): insert(track, after: queue.current?.id, makeCurrent: true)
        case .add(let track, let after, let makeCurrent): insert(track, after: after, makeCurrent: makeCurrent)
        case .remove(let id): remove(id)
        case .goTo(let id): goTo(id)
        case .replaceQueue(let tracks, let playlist): replaceQueue(with: tracks, playlist: playlist)
        case .setRepeatMode(let mode):
            queue.repeatMode = mode
            queueUpcoming()
            publish()
        case .setShuffle(let shuffle):
            guard shuffle != queue.isShuffled else { return }
            queue.setShuffle(shuffle)
            queueUpcoming()
            publish()
        case .setRate(let rate):
            self.rate = rate
            emit(.engine(.setRate(rate)))
            publish()
        case .setVolume(let volume):
            self.volume = volume
            emit(.engine(.setVolume(engineLevel)))
            if muted {
                // Volume reads 0 while muted, so a client that sets it asks to hear that level.
                muted = false
                emit(.engine(.setMuted(false)))
            }
            publish()
        }
    }

    /// Where an overlay sends `command`: `.some(request)` when the overlay takes it (`.some(nil)`:
    /// taken and ignored, Play while an alarm rings), nil when the music gets it.
    private func overlayAnswer(to command: PlayerCommand) -> ClockRequest?? {
        if alarm != nil {
            switch command {
            case .next: return .some(.snoozeAlarm)
            case .stop, .pause, .playPause: return .some(.dismissAlarm)
            case .play: return .some(nil)
            default: return nil
            }
        }
        if pomodoro != nil {
            switch command {
            case .playPause: return .some(.togglePomodoro)
            case .pause: return .some(.setPomodoroPaused(true))
            case .play: return .some(.setPomodoroPaused(false))
            default: return nil
            }
        }
        return nil
    }

    /// Plays the current entry: resumes it when loaded, else loads it (from a remembered seek).
    mutating func playMusic() {
        guard queue.current != nil else { return }
        pausedBySoundServer = false
        if loadedEntryID == nil || transport == .stopped || queue.current?.id != loadedEntryID {
            let start = pendingSeek ?? .zero
            loadCurrent(.playing)
            publish(position: .at(start))
        } else {
            transport = .playing
            emit(.engine(.play))
            publish()
        }
    }

    mutating func pauseMusic() {
        guard transport == .playing else { return }
        transport = .paused
        pausedBySoundServer = false
        emit(.engine(.pause))
        publish(position: .engineNow)
    }

    private mutating func stopMusic() {
        guard transport != .stopped else { return }
        transport = .stopped
        pausedBySoundServer = false
        seekInFlight = nil
        lastEnginePosition = nil
        emit(.engine(.stop))
        publish(position: .at(.zero))
    }

    /// Next and Previous keep a paused or stopped player paused or stopped.
    private mutating func skip(forward: Bool) {
        guard case .moved = forward ? queue.advance(.userNext) : queue.retreat() else { return }
        loadCurrent(transport)
        publish(position: .at(.zero))
    }

    private mutating func seek(to position: Duration) {
        if transport == .stopped {
            // Remembered: Play starts the track from there.
            pendingSeek = position
        } else {
            emit(.engine(.seek(to: position)))
            seekInFlight = position
        }
        // A crash right after a long seek must not lose the jump.
        emit(.saveSoon)
    }

    private mutating func insert(_ track: NewTrack, after afterID: UInt64?, makeCurrent: Bool) {
        guard queue.count < settings.maximumQueueLength else {
            emit(.refused(.queueFull(limit: settings.maximumQueueLength)))
            return
        }
        let added = queue.insert([track.uri], after: afterID, makeCurrent: makeCurrent)
        for entry in added { tracks[entry.id] = track.facts }
        // Only what was added: O(edit), not a walk of the queue.
        scanUnread(added)
        if let first = added.first, let index = queue.index(of: first.id) {
            emit(.tracksAdded(added.map(item), after: afterID, index: index))
        }
        if makeCurrent {
            loadCurrent(.playing)
            publish(position: .at(.zero))
        } else {
            queueUpcoming()
            publish()
        }
    }

    private mutating func remove(_ id: UInt64) {
        guard let index = queue.index(of: id), case .removed(let wasCurrent) = queue.remove(id: id) else { return }
        tracks[id] = nil
        emit(.trackRemoved(id, index: index))
        if wasCurrent {
            loadCurrent(queue.current == nil ? .stopped : transport)
            publish(position: .at(.zero))
        } else {
            queueUpcoming()
            publish()
        }
    }

    /// GoTo plays the chosen entry (what clicking a track in a panel means), retrying it even if
    /// it failed before.
    private mutating func goTo(_ id: UInt64) {
        guard queue.jump(to: id) else { return }
        tracks[id]?.failure = nil
        loadCurrent(.playing)
        publish(position: .at(.zero))
    }

    mutating func replaceQueue(with newTracks: [NewTrack], playlist: PlaylistReference?) {
        let entries = queue.replaceAll(with: newTracks.map(\.uri))
        tracks.removeAll()
        tracks.reserveCapacity(entries.count)
        for (entry, track) in zip(entries, newTracks) { tracks[entry.id] = track.facts }
        activePlaylist = playlist
        pendingSeek = nil
        scanUnread(queue.entries)
        loadCurrent(queue.current == nil ? .stopped : .playing)
        publish(position: .at(.zero), trackList: queue.entries.map(\.id))
    }
}
