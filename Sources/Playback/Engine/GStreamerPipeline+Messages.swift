internal import CGStreamer

/// Turning bus messages into ``PlaybackEvent``s, on the loop thread.
extension GStreamerPipeline {
    func handle(_ message: BusMessage) {
        // Messages from a pipeline generation already abandoned (an error storm, a file
        // replaced by load) describe nothing current.
        guard !isRetired, message.generation == session.generation else { return }
        positionCache.invalidate()
        switch message.type {
        case GST_MESSAGE_ERROR: handleError(message)
        case GST_MESSAGE_WARNING: handleWarning(message)
        case GST_MESSAGE_EOS:
            perform(lifecycle.handle(.endOfStream))
            emit(.endOfStream)
        case GST_MESSAGE_TAG: handleTags(message)
        case GST_MESSAGE_STATE_CHANGED: handleStateChange(message)
        case GST_MESSAGE_ASYNC_DONE: handleAsyncDone()
        case GST_MESSAGE_DURATION_CHANGED: reportDuration()
        case GST_MESSAGE_STREAM_START: handleStreamStart(message)
        case GST_MESSAGE_BUFFERING: handleBuffering(message)
        case GST_MESSAGE_REQUEST_STATE: handleRequestState(message)
        case GST_MESSAGE_CLOCK_LOST:
            // The documented recovery: pausing and resuming makes the pipeline pick a new clock.
            guard session.target == .playing else { return }
            gst_element_set_state(playbin, GST_STATE_PAUSED)
            gst_element_set_state(playbin, GST_STATE_PLAYING)
        default: break
        }
        // After the message's own handling, which may have changed the pipeline again.
        settlePositionIfPaused()
    }

    /// Only the first error of a generation counts: it is reported with its URI, and the
    /// pipeline is reset so the rest of the storm is ignored and the next load starts clean.
    /// The engine stops, unless the error came from a decoder other than the audible one; what
    /// each error means is the lifecycle's decision (``PipelineLifecycle/ErrorResponse``).
    private func handleError(_ message: BusMessage) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message.pointer, &error, &debug)
        let text = error.map { String(cString: $0.pointee.message) } ?? "Unknown playback error"
        if let error { g_error_free(error) }
        let detail = takeString(debug)
        let source = PipelineLifecycle.ErrorSource(
            originURI: message.originURI, fromDecoderWithoutURI: message.fromDecoderWithoutURI,
            handedOver: handoff.firstHandedOver, currentURI: session.currentURI)
        for case .respond(let response) in lifecycle.handle(.error(source)) {
            switch response {
            case .ignore: break
            case .retrySwitch(let next):
                emit(.warning(uri: next, message: "GStreamer failed to switch to the next track (\(text)); trying again"))
                reload(seekingTo: position() ?? 0, reported: false, next: next)
            case .setAside(let failed):
                // Before the event, so a pipeline replacing this one does not queue it again.
                intent.update { if $0.next == failed { $0.next = nil } }
                var failure = PlaybackFailure(uri: failed, message: text, debug: detail)
                failure.currentTrackContinues = true
                emit(.error(failure))
                reload(seekingTo: position() ?? 0, reported: false, next: nil)
                perform(lifecycle.handle(.setAside(uri: failed)))
            case .stop(let failed):
                // Recorded before the event goes out: the app's answer (usually loading the next
                // track) must not be overwritten by this stop.
                intent.update { $0.stoppedByError() }
                emit(.error(PlaybackFailure(uri: failed, message: text, debug: detail)))
                session.target = .stopped
                restart(with: nil)
            }
        }
    }

    private func handleWarning(_ message: BusMessage) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_warning(message.pointer, &error, &debug)
        g_free(debug)
        guard let error else { return }
        let text = String(cString: error.pointee.message)
        g_error_free(error)
        emit(.warning(uri: message.originURI ?? session.currentURI, message: text))
    }

    private func handleStateChange(_ message: BusMessage) {
        var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        gst_message_parse_state_changed(message.pointer, &old, &new, &pending)
        // Steps on the way to a target (NULL→READY→PAUSED→PLAYING, or a seek's lost state) are
        // not states the user should see.
        guard pending == GST_STATE_VOID_PENDING, old != new else { return }
        switch new {
        case GST_STATE_PLAYING: report(.playing)
        case GST_STATE_PAUSED:
            report(session.bufferingPercent != nil && session.target == .playing ? .buffering : .paused)
        default: report(.stopped)
        }
    }

    private func handleAsyncDone() {
        perform(lifecycle.handle(.prerolled))
        switch session.seeking.prerolled(rateDue: session.appliedRate != session.rate) {
        case .seek(let pending): seek(toMicroseconds: pending.microseconds, reported: pending.reported)
        case .reportSeekCompleted(let target): emit(.seekCompleted(microseconds: target))
        case .reapplyRate: seek(toMicroseconds: position() ?? 0, reported: false)
        case .none: break
        }
        if let next = session.seeking.releaseHeldNext() { handoff.setNext(next) }
        reportDuration()
    }

    /// A new stream reached the sink: the audible track changed. The first stream of a
    /// generation is the loaded URI; later ones are the URIs handed over in about-to-finish, in
    /// order.
    private func handleStreamStart(_ message: BusMessage) {
        var groupID: guint = 0
        if gst_message_parse_group_id(message.pointer, &groupID) != 0 {
            guard groupID != session.lastGroupID else { return }
            session.lastGroupID = groupID
        }
        let isSwitch = session.streamsStarted > 0
        session.streamsStarted += 1
        let uri = isSwitch ? (handoff.popHandedOver() ?? session.currentURI) : session.loadedURI
        session.currentURI = uri
        guard let uri else { return }
        // A track reloaded only to seek in it goes on rather than starting again.
        guard lifecycle.handle(.streamStarted(uri: uri, isSwitch: isSwitch)).contains(.announceTrack) else { return }
        forgetTracks(except: uri)
        if isSwitch { intent.update { $0.moved(to: uri) } }
        emit(.trackStarted(uri: uri))
        if isSwitch {
            // GStreamer resets the rate to 1.0 at a gapless switch.
            session.appliedRate = 1.0
            // From 0, not a position query: right at STREAM_START the sink may still answer
            // with the previous track's segment, placing the seek far into the new track. The
            // cost is replaying the few milliseconds the loop took to get here.
            if session.rate != 1.0 { seek(toMicroseconds: 0, reported: false) }
        }
        publishMetadata()
        reportDuration()
    }

    /// Gapless playback can run for hours in one generation: keep per-track state only for
    /// the track that just started and those handed over after it.
    private func forgetTracks(except current: String) {
        let keep = { (uri: String) in uri == current || self.handoff.isHandedOver(uri) }
        session.metadata = session.metadata.filter { keep($0.key) }
        session.reportedDuration = session.reportedDuration.filter { keep($0.key) }
        session.folderArt = session.folderArt.filter { keep($0.key) }
        // A track played again reports its metadata again.
        session.publishedMetadata = [:]
    }

    private func handleTags(_ message: BusMessage) {
        var list: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(message.pointer, &list)
        guard let list else { return }
        let parsed = tagReader.metadata(from: list)
        gst_tag_list_unref(list)
        guard let uri = message.originURI ?? session.currentURI else { return }
        session.metadata[uri] = (session.metadata[uri] ?? TrackMetadata()).merging(parsed)
        // Tags of a queued track that is not audible yet wait for its STREAM_START.
        if uri == session.currentURI { publishMetadata() }
    }

    /// Reports the current track's metadata if it differs from what was last reported: GStreamer
    /// repeats TAG messages, and most repeats change nothing typed.
    func publishMetadata() {
        guard let uri = session.currentURI else { return }
        var metadata = session.metadata[uri] ?? TrackMetadata()
        if metadata.artURI == nil { metadata.artURI = folderArt(for: uri) }
        guard !metadata.isEmpty, session.publishedMetadata[uri] != metadata else { return }
        session.publishedMetadata[uri] = metadata
        emit(.metadataChanged(uri: uri, metadata))
    }

    private func folderArt(for uri: String) -> String? {
        if let known = session.folderArt[uri] { return known }
        let found = ArtCache.folderArt(nextTo: uri)
        session.folderArt[uri] = found
        return found
    }

    func reportDuration() {
        guard let uri = session.currentURI, let duration = duration(),
              session.reportedDuration[uri] != duration else { return }
        session.reportedDuration[uri] = duration
        emit(.durationChanged(uri: uri, microseconds: duration))
    }

    private func handleBuffering(_ message: BusMessage) {
        var percent: gint = 0
        gst_message_parse_buffering(message.pointer, &percent)
        let value = Int(percent)
        if value != session.reportedBufferingPercent {
            session.reportedBufferingPercent = value
            emit(.buffering(percent: value))
        }
        let wasBuffering = session.bufferingPercent != nil
        if value < 100 {
            session.bufferingPercent = value
            if !wasBuffering, session.target == .playing {
                gst_element_set_state(playbin, GST_STATE_PAUSED)
                report(.buffering)
            }
        } else if wasBuffering {
            session.bufferingPercent = nil
            applyTarget()
        }
    }

    private func handleRequestState(_ message: BusMessage) {
        var state = GST_STATE_VOID_PENDING
        gst_message_parse_request_state(message.pointer, &state)
        switch state {
        case GST_STATE_PLAYING: emit(.soundServerRequest(.resume))
        case GST_STATE_PAUSED: emit(.soundServerRequest(.pause))
        default: emit(.soundServerRequest(.stop))
        }
    }

    /// Scheduled by the ``VolumeWatcher``: reads volume and mute here rather than on the notifying
    /// thread, so that reads happen in loop order and the last one always sees the current
    /// level (a value read on a streaming thread could be overtaken by a newer one). With a
    /// sound server each read is a round trip to it.
    func volumeMayHaveChanged() {
        guard !isRetired else { return }
        volumeWatcher.rearm()
        let volume = playbin.double("volume"), muted = playbin.bool("mute")
        let applied = session.level.volume
        guard let level = session.level.observe(volume: volume, muted: muted) else { return }
        // A new level from the mixer is what the user wants now; a cap still holds it down.
        if level.volume != applied {
            session.requestedVolume = level.volume
            applyVolume(force: false)
        }
        // The level asked for, not the capped one: the cap is the engine's business.
        emit(.volumeChanged(volume: session.requestedVolume, muted: level.muted))
    }

    /// Forwarded from the streaming thread's about-to-finish.
    func aboutToFinish(generation: UInt64, finishing: String?, next: String?) {
        guard !isRetired, generation == session.generation, let finishing else { return }
        emit(.aboutToFinish(uri: finishing, next: next))
    }
}
