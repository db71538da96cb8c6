import DBus
import PlayerCore

/// Files handed over by the desktop or a second `linnet` (`org.freedesktop.Application.Open`).
extension PlayerController {
    /// Plays `items` now in place of the queue: what a double-click on files means, and what
    /// `linnet FILES` means whether or not a linnet already runs. Handled before it returns.
    func playNow(_ items: [PlayableItem]) {
        let tracks = items.map(NewTrack.init)
        owner.loop.sync { _ = owner.value.send(.command(.replaceQueue(tracks, playlist: nil))) }
    }

    /// Appends `items` to the end of the queue without changing what plays; all of them or,
    /// when they would overfill the queue, none. Handled before it returns.
    func append(_ items: [PlayableItem]) throws(DBusError) {
        let tracks = items.map(NewTrack.init)
        let limit = MediaAdmission.maximumQueueLength
        let refused: Bool = owner.loop.sync {
            let owner = owner.value
            let queued = owner.machine.queue.count
            guard queued + tracks.count <= limit else { return true }
            // Inserting each after the same last entry, last track first, lands them in order
            // without knowing the ids the queue gives them. One loop turn: nothing interleaves.
            let last = owner.machine.queue.last?.id
            for track in tracks.reversed() {
                _ = owner.send(.command(.add(track, after: last, makeCurrent: false)))
            }
            return false
        }
        if refused {
            throw DBusError(.limitsExceeded, "the queue holds at most \(limit) tracks; \(tracks.count) more do not fit")
        }
        // Added one by one, so the owner saw no bulk change: the items given are the release.
        HeapTrim.afterRelease(ofEntries: tracks.count)
    }
}
