/// Why the queue is asked to move forward; the two differ only under `RepeatMode.track`.
public enum AdvanceReason: Sendable, Equatable {
    /// The current track played to its natural end: repeats it under `RepeatMode.track`.
    case trackEnded
    /// The user pressed Next (MPRIS `Next`): always moves on, even under `RepeatMode.track`.
    case userNext
}

/// What a navigation call did to the queue, so the player knows what to load.
public enum QueueMove: Sendable, Equatable {
    /// `to` is now current. `wrapped` is true when the move went round the end of the queue (or,
    /// shuffled, crossed from one shuffle round into another) under `RepeatMode.playlist`.
    case moved(to: QueueEntry, wrapped: Bool)
    /// The same entry plays again (`RepeatMode.track` at a natural end); nothing changed.
    case repeatedTrack(QueueEntry)
    /// A track ended and nothing is left to play; the current entry stays current.
    case reachedEnd
    /// Nothing to do (empty queue, or Next/Previous at an end without wrapping).
    case unchanged
}

/// The outcome of removing an entry.
public enum QueueRemoval: Sendable, Equatable {
    /// No entry has that id; the queue is unchanged.
    case notFound
    /// The entry is gone. `wasCurrent` tells the player it must load the new current entry.
    case removed(wasCurrent: Bool)
}
