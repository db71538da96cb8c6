import MPRIS
import Playback

extension PlayerController {
    /// Loads the queue's current entry into the engine with `intent` (playing, paused, or
    /// stopped-but-remembered), skipping entries already known to be broken, and queues the
    /// entry that follows for a gapless switch.
    func loadCurrent(_ state: inout State, intent: PlaybackStatus) {
        state.switchPending = false
        state.queuedNextID = nil
        state.seekInFlight = nil
        state.lastEnginePosition = nil
        skipFailedEntries(&state)
        guard let entry = state.queue.current else {
            state.loadedEntryID = nil
            state.intent = .stopped
            engine.stop()
            return
        }
        state.loadedEntryID = entry.id
        state.intent = intent
        engine.load(entry.uri)
        switch intent {
        case .playing: engine.play()
        case .paused: engine.pause()
        case .stopped: engine.stop()
        }
        if let position = state.pendingSeek {
            engine.seek(toMicroseconds: position)
            state.seekInFlight = position
        }
        queueUpcoming(&state)
    }

    /// Hands the entry that would follow a natural end to the engine, or clears it. An entry
    /// already known to be broken is not handed over: its failure would only make the engine
    /// reload the current track; the track ends instead and endOfStream skips the entry.
    func queueUpcoming(_ state: inout State) {
        let next = state.queue.upcoming().flatMap { state.info[$0.id]?.failure == nil ? $0 : nil }
        state.queuedNextID = next?.id
        engine.setNext(next?.uri)
    }

    /// Moves past entries that already failed to play, at most once round the queue, so a
    /// queue of only broken files ends instead of spinning.
    func skipFailedEntries(_ state: inout State) {
        var attempts = state.queue.entries.count
        while let current = state.queue.current, state.info[current.id]?.failure != nil, attempts > 0 {
            attempts -= 1
            switch state.queue.advance(.userNext) {
            case .moved: continue
            default:
                state.intent = .stopped
                return
            }
        }
    }

    /// Marks `entryID` as unplayable, logs why, and tells clients (the entry stays listed with
    /// its error in `linnet:error`).
    func markFailed(_ entryID: UInt64, reason: String, _ state: inout State) {
        guard let entry = state.queue.entry(id: entryID) else { return }
        var info = state.info[entryID] ?? TrackInfo()
        guard info.failure == nil else { return }
        info.failure = reason
        state.info[entryID] = info
        logger.warning("skipping \(entry.uri): \(reason)")
        server.trackMetadataChanged(info.metadata(for: entry))
        if state.queuedNextID == entryID, !state.switchPending {
            // Found broken (by the tag scan) while queued and not yet handed over: withdrawn.
            state.queuedNextID = nil
            engine.setNext(nil)
        }
    }

    /// The metadata to publish for the current entry.
    func currentMetadata(_ state: State) -> Metadata {
        guard let entry = state.queue.current else { return .empty }
        return (state.info[entry.id] ?? TrackInfo()).metadata(for: entry)
    }
}
