import DBus
import Foundation
public import MPRIS
import Playback

/// `org.mpris.MediaPlayer2` and `.Player` commands. The MPRIS server has applied the spec's
/// rules already (Can* checks, clamping, stale positions); these carry the command out.
extension PlayerController: MPRISRootHandler, MPRISPlayerHandler {
    public func quit() {
        requestQuit()
    }

    public func play() {
        if intercepted(.play) { return }
        state.withLock { state in
            guard state.queue.current != nil else { return }
            state.pausedBySoundServer = false
            if state.loadedEntryID == nil || state.intent == .stopped || state.queue.current?.id != state.loadedEntryID {
                loadCurrent(&state, intent: .playing)
                publish(state, position: state.pendingSeek ?? 0)
            } else {
                state.intent = .playing
                engine.play()
                publish(state)
            }
        }
    }

    public func pause() {
        if intercepted(.pause) { return }
        state.withLock { state in
            guard state.intent == .playing else { return }
            state.intent = .paused
            state.pausedBySoundServer = false
            engine.pause()
            publish(state, position: engine.position())
        }
    }

    public func playPause() {
        if intercepted(.playPause) { return }
        if state.withLock({ $0.intent == .playing }) { pause() } else { play() }
    }

    public func stop() {
        if intercepted(.stop) { return }
        state.withLock { state in
            guard state.intent != .stopped else { return }
            state.intent = .stopped
            state.pausedBySoundServer = false
            state.seekInFlight = nil
            state.lastEnginePosition = nil
            engine.stop()
            publish(state, position: 0)
        }
    }

    public func next() {
        if intercepted(.next) { return }
        state.withLock { state in
            guard case .moved = state.queue.advance(.userNext) else { return }
            let intent = state.intent
            loadCurrent(&state, intent: intent)
            publish(state, position: 0)
        }
    }

    public func previous() {
        state.withLock { state in
            guard case .moved = state.queue.retreat() else { return }
            let intent = state.intent
            loadCurrent(&state, intent: intent)
            publish(state, position: 0)
        }
    }

    public func seek(to position: Microseconds) {
        state.withLock { state in
            if state.intent == .stopped {
                // Remember it: Play starts the track from there.
                state.pendingSeek = position
            } else {
                engine.seek(toMicroseconds: position)
                state.seekInFlight = position
            }
        }
        saveSoon()
    }

    public func openURI(_ uri: String) throws {
        let item = try MediaAdmission.admit(uri)
        try MediaAdmission.ensureRoom(queueLength: state.withLock { $0.queue.entries.count })
        let added = state.withLock { state in
            let afterID = state.queue.current?.id
            let added = state.queue.insert([item], after: afterID, makeCurrent: true)
            announceAdded(added, after: afterID, &state)
            loadCurrent(&state, intent: .playing)
            publish(state, position: 0)
            return added
        }
        scanQueue(only: added)  // only the new entry: O(edit), not a walk of the queue
    }

    public func setLoopStatus(_ status: LoopStatus) {
        state.withLock { state in
            state.queue.repeatMode = RepeatMode(status)
            queueUpcoming(&state)
            publish(state)
        }
    }

    public func setShuffle(_ shuffle: Bool) {
        state.withLock { state in
            guard shuffle != state.queue.isShuffled else { return }
            state.queue.setShuffle(shuffle)
            queueUpcoming(&state)
            publish(state)
        }
    }

    public func setRate(_ rate: Double) {
        state.withLock { state in
            state.rate = rate
            engine.setRate(rate)
            publish(state)
        }
    }

    public func setVolume(_ volume: Double) {
        state.withLock { state in
            state.volume = volume
            engine.setVolume(volume)
            if state.muted {
                // Volume reads 0 while muted, so a client that sets it asks to hear that level.
                state.muted = false
                engine.setMuted(false)
            }
            publish(state)
        }
    }

    /// Where playback is in the loaded track, in microseconds: a seek's target until the engine
    /// confirms it, 0 when stopped or nothing is loaded.
    public func currentPosition() -> Microseconds? {
        let (loaded, intent, pending) = state.withLock { ($0.loadedEntryID, $0.intent, $0.pendingSeek ?? $0.seekInFlight) }
        guard let loaded else { return 0 }
        if let pending { return pending }
        if intent == .stopped { return 0 }
        if let answer = engine.position() {
            state.withLock { $0.lastEnginePosition = (loaded, answer) }
            return answer
        }
        // The engine cannot answer (prerolling), so it is not moving: where it last was in this
        // track, or its start (a seek still due was answered above).
        return state.withLock { state in
            guard let last = state.lastEnginePosition, last.entry == state.loadedEntryID else { return 0 }
            return last.microseconds
        }
    }

    /// Announces entries inserted after `afterID` (nil: at the start) on the TrackList.
    func announceAdded(_ added: [QueueEntry], after afterID: UInt64?, _ state: inout State) {
        var previous = afterID.map(TrackID.forEntry) ?? .noTrack
        for entry in added {
            let metadata = (state.info[entry.id] ?? TrackInfo()).metadata(for: entry)
            server.addTrack(metadata, after: previous)
            previous = TrackID.forEntry(entry.id)
        }
    }
}

/// `org.mpris.MediaPlayer2.TrackList`: the queue, editable.
extension PlayerController: MPRISTrackListHandler {
    public func metadata(for tracks: [TrackID]) -> [Metadata] {
        state.withLock { state in
            tracks.compactMap { track in
                guard let id = track.entryID, let entry = state.queue.entry(id: id) else { return nil }
                return (state.info[id] ?? TrackInfo()).metadata(for: entry)
            }
        }
    }

    public func addTrack(uri: String, after: TrackID, setAsCurrent: Bool) throws {
        let item = try MediaAdmission.admit(uri)
        try MediaAdmission.ensureRoom(queueLength: state.withLock { $0.queue.entries.count })
        let added = state.withLock { state in
            let afterID = after.isNoTrack ? nil : after.entryID
            let added = state.queue.insert([item], after: afterID, makeCurrent: setAsCurrent)
            announceAdded(added, after: afterID, &state)
            if setAsCurrent {
                loadCurrent(&state, intent: .playing)
                publish(state, position: 0)
            } else {
                queueUpcoming(&state)
                publish(state)
            }
            return added
        }
        scanQueue(only: added)  // only the new entry: O(edit), not a walk of the queue
    }

    public func removeTrack(_ track: TrackID) {
        guard let id = track.entryID else { return }
        state.withLock { state in
            guard case .removed(let wasCurrent) = state.queue.remove(id: id) else { return }
            state.info[id] = nil
            server.removeTrack(track)
            if wasCurrent {
                let intent = state.queue.current == nil ? PlaybackStatus.stopped : state.intent
                loadCurrent(&state, intent: intent)
                publish(state, position: 0)
            } else {
                queueUpcoming(&state)
                publish(state)
            }
        }
    }

    /// GoTo plays the chosen entry (what clicking a track in a panel means), retrying it even
    /// if it failed before.
    public func goTo(_ track: TrackID) {
        guard let id = track.entryID else { return }
        state.withLock { state in
            guard state.queue.jump(to: id) else { return }
            state.info[id]?.failure = nil
            loadCurrent(&state, intent: .playing)
            publish(state, position: 0)
        }
    }
}
