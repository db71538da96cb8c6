/// Loading entries into the engine, handing over the next one, and publishing.
extension PlayerMachine {
    /// Loads the queue's current entry with `transport` (playing, paused, or stopped but
    /// remembered), skipping entries known to be broken, and queues the one that follows.
    mutating func loadCurrent(_ transport: Transport) {
        switchPending = false
        queuedNextID = nil
        seekInFlight = nil
        lastEnginePosition = nil
        var transport = transport
        if !skipFailedEntries() { transport = .stopped }
        guard let entry = queue.current else {
            loadedEntryID = nil
            self.transport = .stopped
            emit(.engine(.stop))
            return
        }
        loadedEntryID = entry.id
        self.transport = transport
        readAhead(entry)
        emit(.engine(.load(entry.uri)))
        switch transport {
        case .playing: emit(.engine(.play))
        case .paused: emit(.engine(.pause))
        case .stopped: emit(.engine(.stop))
        }
        if let position = pendingSeek {
            emit(.engine(.seek(to: position)))
            seekInFlight = position
        }
        queueUpcoming()
    }

    /// Hands the entry that would follow a natural end to the engine, or clears it. An entry
    /// known to be broken is not handed over: its failure would only make the engine reload the
    /// current track; the track ends instead and endOfStream skips the entry.
    mutating func queueUpcoming() {
        let next = queue.upcoming().flatMap { tracks[$0.id]?.failure == nil ? $0 : nil }
        queuedNextID = next?.id
        if let next { readAhead(next) }
        emit(.engine(.setNext(next?.uri)))
    }

    /// Whether `entry` is a local file, whose facts come from reading the file (the scan).
    static func isLocal(_ entry: QueueEntry) -> Bool { entry.uri.hasPrefix("file:") }

    /// Whether clients may be shown `entry` as complete: a stream always (its tags come as it
    /// plays), a local file once its tags and art are read.
    func factsSettled(_ entry: QueueEntry) -> Bool {
        !Self.isLocal(entry) || tracks[entry.id]?.tagsRead == true
    }

    /// Asks for `entry`'s tags now when they are not read yet (the queue's own scan goes in
    /// order, and a jump or the next track may be far down it), so that a track about to play
    /// starts with its facts settled. Once per entry; a second answer changes nothing.
    private mutating func readAhead(_ entry: QueueEntry) {
        guard Self.isLocal(entry), !factsSettled(entry), !readAheadIDs.contains(entry.id) else { return }
        readAheadIDs.insert(entry.id)
        tracks[entry.id, default: TrackFacts()].scanned = true
        emit(.scan([entry]))
    }

    /// Moves past entries that already failed, at most once round the queue, so a queue of only
    /// broken files ends instead of spinning. False when it ran out of entries.
    private mutating func skipFailedEntries() -> Bool {
        var attempts = queue.count
        while let current = queue.current, tracks[current.id]?.failure != nil, attempts > 0 {
            attempts -= 1
            guard case .moved = queue.advance(.userNext) else { return false }
        }
        return true
    }

    /// Marks `entryID` as unplayable, logs why, and tells clients (the entry stays listed with
    /// its error).
    mutating func markFailed(_ entryID: UInt64, reason: String) {
        guard let entry = queue.entry(id: entryID) else { return }
        var facts = tracks[entryID] ?? TrackFacts()
        guard facts.failure == nil else { return }
        facts.failure = reason
        tracks[entryID] = facts
        emit(.log(.warning, "skipping \(entry.uri): \(reason)"))
        emit(.trackChanged(TrackItem(entry: entry, facts: facts)))
        if queuedNextID == entryID, !switchPending {
            // Found broken (by the tag scan) while queued and not yet handed over: withdrawn.
            queuedNextID = nil
            emit(.engine(.setNext(nil)))
        }
    }

    /// Changes what is known about `entry` and tells clients when it changed.
    mutating func updateFacts(of entry: QueueEntry, _ change: (inout TrackFacts) -> Void) {
        var facts = tracks[entry.id] ?? TrackFacts()
        let before = facts
        change(&facts)
        guard facts != before else { return }
        tracks[entry.id] = facts
        emit(.trackChanged(TrackItem(entry: entry, facts: facts)))
        if queue.current?.id == entry.id { publish() }
    }

    /// Marks local entries not read yet as being read and asks for their scan.
    mutating func scanUnread(_ entries: [QueueEntry]) {
        let work = entries.filter { entry in
            guard entry.uri.hasPrefix("file:"), tracks[entry.id]?.scanned != true else { return false }
            tracks[entry.id, default: TrackFacts()].scanned = true
            return true
        }
        if !work.isEmpty { emit(.scan(work)) }
    }

    /// The state clients see now.
    public var snapshot: PlayerSnapshot {
        PlayerSnapshot(
            transport: transport, current: queue.current.map(item), volume: muted ? 0 : volume, rate: rate,
            repeatMode: queue.repeatMode, shuffled: queue.isShuffled, canGoNext: queue.canAdvance,
            canGoPrevious: queue.canRetreat, activePlaylist: activePlaylist, alarm: alarm, pomodoro: pomodoro)
    }

    /// Publishes the state, asks for a save, and keeps the desktop in step.
    mutating func publish(position: PositionUpdate = .unchanged, trackList: [UInt64]? = nil) {
        emit(.publish(snapshot, position: position, trackList: trackList))
        emit(.saveSoon)
        syncDesktop()
    }

    /// Keeps focus, the inhibitor and the notification in step with the transport.
    private mutating func syncDesktop() {
        guard !isShutDown else { return }
        let playing = transport == .playing
        // A call is a pause, not an end: players linnet paused stay paused through it.
        let holds = playing || (pausedBySoundServer && transport == .paused)
        if playing || transport == .stopped { pausedForFocus = false }
        if holds != holdsPlayback {
            holdsPlayback = holds
            emit(.holdPlayback(holds))
        }
        // A local file is announced once its tags and art are read: one bubble, complete.
        guard playing, settings.announcesTracks, let current = queue.current, factsSettled(current),
              let announcement = currentAnnouncement, announcement != announced else { return }
        announced = announcement
        emit(.announce(announcement))
    }

    private var currentAnnouncement: TrackAnnouncement? {
        guard let entry = queue.current else { return nil }
        let facts = tracks[entry.id] ?? TrackFacts()
        let byline = [facts.artists.joined(separator: ", "), facts.tags.album ?? ""].filter { !$0.isEmpty }
        let art = facts.tags.artURI.flatMap { $0.hasPrefix("file://") ? $0 : nil }
        return TrackAnnouncement(
            entryID: entry.id, title: facts.title(for: entry.uri), body: byline.joined(separator: " — "), art: art,
            canGoBack: queue.canRetreat, canGoOn: queue.canAdvance)
    }

    /// Where playback is in the loaded entry when the engine need not be asked: a seek's target
    /// until the engine confirms it, 0 when stopped or nothing is loaded. Nil: ask the engine and
    /// pass its answer to ``position(engineAnswer:)``.
    public var positionWithoutEngine: Duration? {
        guard loadedEntryID != nil else { return .zero }
        if let pending = pendingSeek ?? seekInFlight { return pending }
        if transport == .stopped { return .zero }
        return nil
    }

    /// The position given the engine's answer; when it cannot answer (prerolling) it is not
    /// moving, so where it last was in this entry, or its start.
    public mutating func position(engineAnswer: Duration?) -> Duration {
        if let known = positionWithoutEngine { return known }
        guard let loaded = loadedEntryID else { return .zero }
        if let engineAnswer {
            lastEnginePosition = EnginePosition(entryID: loaded, position: engineAnswer)
            return engineAnswer
        }
        guard let last = lastEnginePosition, last.entryID == loaded else { return .zero }
        return last.position
    }

    /// The position, calling `engineAnswer` only when ``positionWithoutEngine`` cannot tell.
    /// One mutating access: its owner keeps the machine in a class, where reading
    /// ``positionWithoutEngine`` first copied the whole machine on every Position read.
    public mutating func position(askingEngine engineAnswer: () -> Duration?) -> Duration {
        if let known = positionWithoutEngine { return known }
        return position(engineAnswer: engineAnswer())
    }
}
