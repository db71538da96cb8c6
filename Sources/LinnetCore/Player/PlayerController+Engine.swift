import MPRIS
import Playback

extension PlayerController {
    /// Consumes the engine's one event stream for the player's whole life.
    func consumeEngineEvents() {
        let events = engine.events
        Task.detached { [weak self] in
            for await event in events {
                guard let self else { return }
                self.handle(event)
            }
        }
    }

    /// Applies one engine event.
    func handle(_ event: PlaybackEvent) {
        var seekedTo: Microseconds?
        state.withLock { state in
            switch event {
            case .aboutToFinish(_, let next):
                state.switchPending = next != nil
            case .trackStarted(let uri):
                seekedTo = trackStarted(uri, &state)
            case .endOfStream:
                trackEnded(&state)
            case .error(let failure):
                failed(failure, &state)
            case .metadataChanged(let uri, let tags):
                guard let entry = loadedEntry(state), entry.uri == uri else { return }
                updateInfo(entry, &state) { $0.merge(tags) }
            case .durationChanged(let uri, let microseconds):
                guard let entry = loadedEntry(state), entry.uri == uri else { return }
                updateInfo(entry, &state) { $0.duration = microseconds }
            case .soundServerRequest(let request):
                soundServerAsked(request, &state)
            case .outputRouteChanged(let route, let change):
                outputRouteChanged(to: route, change, &state)
            case .volumeChanged(let volume, let muted):
                // The user changed linnet's level in the mixer. It goes to clients only: the
                // engine already plays at it, and setting it back could start a ping-pong.
                guard volume != state.volume || muted != state.muted else { return }
                state.volume = volume
                state.muted = muted
                publish(state)
            case .warning(let uri, let message):
                logger.warning("\(uri ?? "playback"): \(message)")
            case .seekCompleted:
                state.seekInFlight = nil
            case .stateChanged, .buffering:
                // PlaybackStatus follows the user's intent; transient engine states (prerolling
                // on the way to playing) must not make panels flicker.
                return
            }
        }
        if let seekedTo { server.seeked(to: seekedTo) }
    }

    private func loadedEntry(_ state: State) -> QueueEntry? {
        state.loadedEntryID.flatMap { state.queue.entry(id: $0) }
    }

    /// The engine reached a new track: a gapless switch to the queued entry (the queue
    /// advances), or the start of what was loaded. Returns the position to announce with
    /// Seeked when the track restarted (repeat one) or resumed part-way.
    private func trackStarted(_ uri: String, _ state: inout State) -> Microseconds? {
        if state.switchPending, let nextID = state.queuedNextID, state.queue.entry(id: nextID)?.uri == uri {
            state.switchPending = false
            let move = state.queue.advance(.trackEnded)
            if state.queue.current?.id != nextID { _ = state.queue.jump(to: nextID) }
            state.loadedEntryID = nextID
            queueUpcoming(&state)
            publish(state, position: 0)
            if case .repeatedTrack = move { return 0 }
            return nil
        }
        guard let entry = loadedEntry(state), entry.uri == uri else { return nil }
        if let position = state.pendingSeek {
            state.pendingSeek = nil
            publish(state, position: position)
            return position
        }
        return nil
    }

    /// The last queued track ended with nothing queued after it.
    private func trackEnded(_ state: inout State) {
        switch state.queue.advance(.trackEnded) {
        case .moved, .repeatedTrack:
            loadCurrent(&state, intent: .playing)
            publish(state, position: 0)
        case .reachedEnd, .unchanged:
            state.intent = .stopped
            state.lastEnginePosition = nil
            engine.stop()
            publish(state, position: 0)
        }
    }

    /// A URI failed: the queued next one (the current one plays on) or the loaded one (skip it).
    private func failed(_ failure: PlaybackFailure, _ state: inout State) {
        let reason = failure.message
        if failure.currentTrackContinues {
            nextFailed(failure, &state)
            return
        }
        if let nextID = state.queuedNextID, let next = state.queue.entry(id: nextID), next.uri == failure.uri,
            loadedEntry(state)?.uri != failure.uri || state.switchPending
        {
            markFailed(nextID, reason: reason, &state)
            state.switchPending = false
            state.queuedNextID = nil
            // The engine plays the current track to its end; endOfStream then moves past the
            // broken entry.
            engine.setNext(nil)
            return
        }
        guard let loaded = loadedEntry(state), failure.uri == nil || failure.uri == loaded.uri else {
            // The engine stopped (the failure says the current track does not go on), for a
            // URI this player does not think is playing: its view and the engine's parted (a
            // late event crossed a command). Staying "Playing" on a stopped engine would stall
            // the queue; loading the current entry again brings both back in step.
            logger.warning("playback error for \(failure.uri ?? "?"), not the current track: \(reason)")
            if state.intent != .stopped, state.queue.current != nil {
                loadCurrent(&state, intent: state.intent)
                publish(state, position: 0)
            }
            return
        }
        markFailed(loaded.id, reason: reason, &state)
        let wasPlaying = state.intent == .playing
        switch state.queue.advance(.userNext) {
        case .moved:
            loadCurrent(&state, intent: wasPlaying ? .playing : .paused)
        default:
            state.intent = .stopped
            state.loadedEntryID = nil
            engine.stop()
        }
        publish(state, position: 0)
    }

    /// The engine plays the current track on with nothing queued after it. Marks the queued
    /// entry that failed; an entry queued since (the engine dropped it with the failed one) is
    /// handed over again. endOfStream then moves past broken entries.
    private func nextFailed(_ failure: PlaybackFailure, _ state: inout State) {
        state.switchPending = false
        guard let nextID = state.queuedNextID, let next = state.queue.entry(id: nextID) else {
            logger.warning("playback error for \(failure.uri ?? "?") while queued: \(failure.message)")
            return
        }
        if next.uri == failure.uri {
            markFailed(nextID, reason: failure.message, &state)
        } else {
            logger.warning("playback error for \(failure.uri ?? "?") while queued: \(failure.message)")
        }
        if state.info[nextID]?.failure == nil {
            engine.setNext(next.uri)
        } else {
            state.queuedNextID = nil
            engine.setNext(nil)
        }
    }

    private func soundServerAsked(_ request: SoundServerRequest, _ state: inout State) {
        switch request {
        case .pause, .stop:
            guard state.intent == .playing else { return }
            state.pausedBySoundServer = true
            state.intent = .paused
            engine.pause()
            logger.info("paused: the sound server interrupted playback")
        case .resume:
            guard state.pausedBySoundServer, state.intent == .paused else { return }
            state.pausedBySoundServer = false
            state.intent = .playing
            engine.play()
            logger.info("resumed after the interruption ended")
        }
        publish(state)
    }

    /// Changes what is known about `entry` and tells clients when it changed.
    func updateInfo(_ entry: QueueEntry, _ state: inout State, _ change: (inout TrackInfo) -> Void) {
        var info = state.info[entry.id] ?? TrackInfo()
        let before = info
        change(&info)
        guard info != before else { return }
        state.info[entry.id] = info
        server.trackMetadataChanged(info.metadata(for: entry))
        if state.queue.current?.id == entry.id { publish(state) }
    }
}
