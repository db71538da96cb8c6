import Synchronization

/// The set of published track ids, kept until the track list changes.
///
/// GetTracksMetadata answers only for tracks in the list; hashing every id of a 10 000-track
/// list on each call made a 20-id request take ~2 ms in `make bench`. The cached set is reused
/// while the list is the same array (an O(1) identity check) or equal to it, and AddTrack /
/// RemoveTrack edit it in place (``followEdit(from:to:inserted:removed:)``) instead of leaving
/// the next lookup to rehash every id.
final class TrackSetCache: Sendable {
    private let cached = Mutex<(tracks: [TrackID], set: Set<TrackID>)?>(nil)

    /// The ids of `tracks` as a set.
    func set(of tracks: [TrackID]) -> Set<TrackID> {
        if let set = cached.withLock({ $0?.tracks == tracks ? $0?.set : nil }) { return set }
        let set = Set(tracks)
        cached.withLock { $0 = (tracks, set) }
        return set
    }

    /// Whether `track` is in `tracks`: a hash lookup instead of comparing it with every id.
    func contains(_ track: TrackID, in tracks: [TrackID]) -> Bool {
        if let found = cached.withLock({ $0?.tracks == tracks ? $0?.set.contains(track) : nil }) { return found }
        return set(of: tracks).contains(track)
    }

    /// Follows one edit of the list (`old` became `new` by inserting or removing one id), so the
    /// cached set stays valid without rehashing. A cache for another list is dropped.
    func followEdit(from old: [TrackID], to new: [TrackID], inserted: TrackID? = nil, removed: TrackID? = nil) {
        cached.withLock { entry in
            guard var current = entry, current.tracks == old else {
                entry = nil
                return
            }
            entry = nil  // leaves `current` the set's only owner, so the edit happens in place
            if let inserted { current.set.insert(inserted) }
            if let removed { current.set.remove(removed) }
            current.tracks = new
            entry = current
        }
    }
}
