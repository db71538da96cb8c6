internal import CGStreamer

/// Seeking (and the rate, which GStreamer sets through seeks) without losing tracks.
///
/// Once about-to-finish has handed the next URI to playbin, a flushing seek makes playbin drop
/// the current track and jump to the next one. For tracks shorter than playbin's buffering
/// (a couple of seconds) that moment comes right after loading. So the engine holds the next
/// URI back while a seek is due, and when one was already handed over it reloads the current
/// track, seeks there, and queues the next URI again afterwards (playbin re-emits
/// about-to-finish after every flushing seek).
///
/// Known limit: a next URI queued after a short track has already drained (playbin asks for it
/// as soon as the whole track is buffered) comes too late; the track then ends with
/// end-of-stream and the next one must be loaded.
extension GStreamerPipeline {
    /// Seeks now if the pipeline can take it, later if it has not prerolled yet.
    func seek(toMicroseconds microseconds: Int64, reported: Bool) {
        guard lifecycle.isPrerolled else {
            session.pendingSeek = (microseconds, reported || session.pendingSeek?.reported == true)
            return
        }
        let (queued, handedOver) = handoff.beginSeek()
        let next = queued ?? session.deferredNext
        session.deferredNext = nil
        if let handedOver {
            reload(seekingTo: microseconds, reported: reported, next: handedOver)
            return
        }
        performSeek(toMicroseconds: microseconds, reported: reported)
        if handoff.endSeek(restoring: next) {
            // A short track drained right after the flush, before its next URI was back. This
            // segment has drained already, so the next about-to-finish can only come after
            // this second flush, when the URI is in place.
            performSeek(toMicroseconds: microseconds, reported: reported)
        }
    }

    /// Queues `uri` for gapless playback, or holds it while a seek is still to come.
    func queueNext(_ uri: String?) {
        let seekDue = session.pendingSeek != nil || (session.rate != 1.0 && session.appliedRate != session.rate)
        if seekDue {
            session.deferredNext = uri
            handoff.setNext(nil)
        } else {
            session.deferredNext = nil
            handoff.setNext(uri)
        }
    }

    /// Restarts the current track on a fresh pipeline at `microseconds`, without reporting a
    /// new track, and queues `next` once the seek is done.
    func reload(seekingTo microseconds: Int64, reported: Bool, next: String?) {
        guard let current = session.currentURI else { return }
        let rate = session.rate
        restart(with: current)
        session.rate = rate
        perform(lifecycle.handle(.reloadedToSeek(uri: current)))
        session.pendingSeek = (microseconds, reported)
        session.deferredNext = next
    }

    /// A flushing, accurate seek that also (re)applies the current rate.
    func performSeek(toMicroseconds microseconds: Int64, reported: Bool) {
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        let succeeded = gst_element_seek(
            playbin, session.rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET,
            gint64(ClockTime.nanoseconds(fromMicroseconds: microseconds)), GST_SEEK_TYPE_NONE, -1) != 0
        if succeeded {
            session.appliedRate = session.rate
            if reported { session.userSeekTarget = max(0, microseconds) }
        } else if reported {
            emit(.warning(uri: session.currentURI, message: "Seeking is not possible in this stream"))
        }
    }
}
