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
        let seek = SeekHandOff.Seek(microseconds: microseconds, reported: reported)
        guard lifecycle.isPrerolled else {
            session.seeking.holdUntilPrerolled(seek)
            return
        }
        let (queued, handedOver) = handoff.beginSeek()
        switch session.seeking.plan(queued: queued, handedOver: handedOver) {
        case .reload(let next):
            reload(seekingTo: microseconds, reported: reported, next: next)
        case .seek(let next):
            performSeek(seek)
            if handoff.endSeek(restoring: next) {
                // A short track drained right after the flush, before its next URI was back. This
                // segment has drained already, so the next about-to-finish can only come after
                // this second flush, when the URI is in place.
                performSeek(seek)
            }
        }
    }

    /// Queues `uri` for gapless playback, or holds it while a seek is still to come.
    func queueNext(_ uri: String?) {
        let rateDue = session.rate != 1.0 && session.appliedRate != session.rate
        handoff.setNext(session.seeking.queueNext(uri, rateDue: rateDue))
    }

    /// Restarts the current track on a fresh pipeline at `microseconds`, without reporting a
    /// new track, and queues `next` once the seek is done.
    func reload(seekingTo microseconds: Int64, reported: Bool, next: String?) {
        guard let current = session.currentURI else { return }
        let rate = session.rate
        restart(with: current)
        session.rate = rate
        perform(lifecycle.handle(.reloadedToSeek(uri: current)))
        session.seeking.reloaded(seekingTo: SeekHandOff.Seek(microseconds: microseconds, reported: reported), next: next)
    }

    /// A flushing, accurate seek that also (re)applies the current rate.
    func performSeek(_ seek: SeekHandOff.Seek) {
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        positionCache.invalidate()
        let succeeded = gst_element_seek(
            playbin, session.rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET,
            gint64(ClockTime.nanoseconds(fromMicroseconds: seek.microseconds)), GST_SEEK_TYPE_NONE, -1) != 0
        if succeeded {
            session.appliedRate = session.rate
            session.seeking.performed(seek)
        } else if seek.reported {
            emit(.warning(uri: session.currentURI, message: "Seeking is not possible in this stream"))
        }
    }
}
