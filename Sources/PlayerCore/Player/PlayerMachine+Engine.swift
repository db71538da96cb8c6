/// What the engine reports, and the tag scans' results.
extension PlayerMachine {
    mutating func engineReported(_ report: EngineReport) {
        switch report {
        case .aboutToFinish(let handsOverNext):
            switchPending = handsOverNext
        case .trackStarted(let uri):
            trackStarted(uri)
        case .endOfStream:
            trackEnded()
        case .failed(let failure):
            failed(failure)
        case .tags(let uri, let tags):
            // A local file's facts are its scan's, one input: the engine reads the same file in
            // pieces (the folder's cover at the stream's start, then tags and embedded art), which
            // would republish the track once per piece. A stream's live tags are real changes.
            guard let entry = loadedEntry, entry.uri == uri, !Self.isLocal(entry) else { return }
            updateFacts(of: entry) { $0.merge(tags) }
        case .duration(let uri, let duration):
            guard let entry = loadedEntry, entry.uri == uri else { return }
            engineMeasured(duration, for: entry)
        case .soundServer(let ask):
            soundServerAsked(ask)
        case .mixerVolume(let level, let muted):
            // The engine already plays at it: this goes to clients only, and setting it back
            // could start a ping-pong with the mixer.
            guard level != volume || muted != self.muted else { return }
            volume = level
            self.muted = muted
            publish()
        case .routeChanged(let lostRoute):
            guard lostRoute, settings.pausesWhenRouteLost else { return }
            routeLost()
        case .seekCompleted:
            seekInFlight = nil
        }
    }

    mutating func scanned(_ entryID: UInt64, _ outcome: ScanOutcome) {
        readAheadIDs.remove(entryID)
        guard let entry = queue.entry(id: entryID) else { return }
        switch outcome {
        case .read(let tags, let duration, let lyrics):
            let measured = engineLengthBeforeScan.flatMap { $0.entryID == entryID ? $0.length : nil }
            let isLocal = Self.isLocal(entry)
            updateFacts(of: entry) { facts in
                if isLocal {
                    // A local file's tags are what its latest read found (the engine's are
                    // ignored): a read after the file changed replaces the former one, so a tag
                    // or a cover deleted since goes too.
                    facts.tags = TrackTags()
                }
                facts.merge(tags, duration: duration ?? measured)
                facts.sidecarLyrics = lyrics
                facts.tagsRead = true
            }
        case .unreadable(let reason):
            markFailed(entryID, reason: reason)
        }
    }

    /// The engine's length of `entry`. A local file's scan usually knows it already (the two
    /// differ by a few microseconds: publishing both would be two changes); before the scan
    /// answers it is set aside, out of what any publication shows, for a scan that finds none.
    private mutating func engineMeasured(_ length: Duration, for entry: QueueEntry) {
        guard Self.isLocal(entry) else {
            updateFacts(of: entry) { $0.duration = length }
            return
        }
        let facts = tracks[entry.id] ?? TrackFacts()
        guard facts.duration == nil else { return }
        if facts.tagsRead {
            updateFacts(of: entry) { $0.duration = length }
        } else {
            engineLengthBeforeScan = (entry.id, length)
        }
    }

    /// The engine reached a new track: a gapless switch to the queued entry (the queue
    /// advances), or the start of what was loaded.
    private mutating func trackStarted(_ uri: String) {
        if switchPending, let nextID = queuedNextID, queue.entry(id: nextID)?.uri == uri {
            switchPending = false
            let move = queue.advance(.trackEnded)
            if queue.current?.id != nextID { _ = queue.jump(to: nextID) }
            loadedEntryID = nextID
            queueUpcoming()
            publish(position: .at(.zero))
            // Repeat-one restarts the same entry: the position jumped back.
            if case .repeatedTrack = move { emit(.seeked(to: .zero)) }
            return
        }
        guard let entry = loadedEntry, entry.uri == uri, let position = pendingSeek else { return }
        pendingSeek = nil
        publish(position: .at(position))
        emit(.seeked(to: position))
    }

    /// The last queued track ended with nothing queued after it.
    private mutating func trackEnded() {
        switch queue.advance(.trackEnded) {
        case .moved, .repeatedTrack:
            loadCurrent(.playing)
            publish(position: .at(.zero))
        case .reachedEnd, .unchanged:
            transport = .stopped
            lastEnginePosition = nil
            emit(.engine(.stop))
            publish(position: .at(.zero))
        }
    }

    /// A URI failed: the queued next one (the current one plays on) or the loaded one (skip it).
    private mutating func failed(_ failure: EngineFailure) {
        let reason = failure.message
        if failure.currentTrackContinues {
            nextFailed(failure)
            return
        }
        if let nextID = queuedNextID, let next = queue.entry(id: nextID), next.uri == failure.uri,
           loadedEntry?.uri != failure.uri || switchPending
        {
            markFailed(nextID, reason: reason)
            switchPending = false
            queuedNextID = nil
            // The engine plays the current track to its end; endOfStream then moves past the
            // broken entry.
            emit(.engine(.setNext(nil)))
            return
        }
        guard let loaded = loadedEntry, failure.uri == nil || failure.uri == loaded.uri else {
            // The engine stopped for a URI this player does not think is playing: a late event
            // crossed a command. Staying "Playing" on a stopped engine would stall the queue;
            // loading the current entry again brings both back in step.
            emit(.log(.warning, "playback error for \(failure.uri ?? "?"), not the current track: \(reason)"))
            if transport != .stopped, queue.current != nil {
                loadCurrent(transport)
                publish(position: .at(.zero))
            }
            return
        }
        markFailed(loaded.id, reason: reason)
        let wasPlaying = transport == .playing
        if case .moved = queue.advance(.userNext) {
            loadCurrent(wasPlaying ? .playing : .paused)
        } else {
            transport = .stopped
            loadedEntryID = nil
            emit(.engine(.stop))
        }
        publish(position: .at(.zero))
    }

    /// The engine plays the current track on with nothing queued after it. Marks the queued entry
    /// that failed; an entry queued since (the engine dropped it with the failed one) is handed
    /// over again.
    private mutating func nextFailed(_ failure: EngineFailure) {
        switchPending = false
        guard let nextID = queuedNextID, let next = queue.entry(id: nextID) else {
            emit(.log(.warning, "playback error for \(failure.uri ?? "?") while queued: \(failure.message)"))
            return
        }
        if next.uri == failure.uri {
            markFailed(nextID, reason: failure.message)
        } else {
            emit(.log(.warning, "playback error for \(failure.uri ?? "?") while queued: \(failure.message)"))
        }
        if tracks[nextID]?.failure == nil {
            emit(.engine(.setNext(next.uri)))
        } else if queuedNextID != nil {
            // Not withdrawn yet by markFailed (it was already known to be broken).
            queuedNextID = nil
            emit(.engine(.setNext(nil)))
        }
    }

    /// The output the listener relied on went away (see `RouteChange` for when that is). Music
    /// playing pauses; music paused only for a while — an alarm ringing, a call, another player
    /// given way to — stays paused when that ends, as it would now sound somewhere else.
    private mutating func routeLost() {
        let awaitedResume = musicAwaitsAlarmEnd || pausedBySoundServer || pausedForFocus
        musicAwaitsAlarmEnd = false
        pausedBySoundServer = false
        pausedForFocus = false
        if transport == .playing {
            transport = .paused
            emit(.engine(.pause))
            emit(.log(.info, "paused: the audio output went away"))
            publish(position: .engineNow)
        } else if awaitedResume {
            emit(.log(.info, "the audio output went away: the music stays paused"))
            // A call no longer holds focus: players linnet paused for it get theirs back.
            publish()
        }
    }

    private mutating func soundServerAsked(_ ask: SoundServerAsk) {
        switch ask {
        case .pause:
            guard transport == .playing else { return }
            pausedBySoundServer = true
            transport = .paused
            emit(.engine(.pause))
            emit(.log(.info, "paused: the sound server interrupted playback"))
        case .resume:
            guard pausedBySoundServer, transport == .paused else { return }
            pausedBySoundServer = false
            transport = .playing
            emit(.engine(.play))
            emit(.log(.info, "resumed after the interruption ended"))
        }
        publish()
    }
}
