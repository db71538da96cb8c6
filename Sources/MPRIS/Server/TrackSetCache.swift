import Synchronization

/// The set of published track ids, for the "is this track in the list" checks of
/// GetTracksMetadata, RemoveTrack, GoTo and AddTrack.
///
/// Hashing every id of a 10 000-track list on each call made a 20-id GetTracksMetadata take
/// ~2 ms, so the set is kept between calls: AddTrack and RemoveTrack edit it in place, and any
/// other change of the list drops it (the next check rebuilds it once). It holds no reference to
/// the list itself, which would make every in-place edit of the list copy it.
///
/// Only used with the server's state lock held, so the set always describes the state's list.
final class TrackSetCache: Sendable {
    private let cached = Mutex<Set<TrackID>?>(nil)

    /// Whether `track` is in `tracks`, the state's current list.
    func contains(_ track: TrackID, in tracks: [TrackID]) -> Bool {
        cached.withLock { cached in
            if let set = cached { return set.contains(track) }
            let set = Set(tracks)
            cached = set
            return set.contains(track)
        }
    }

    /// Follows the insertion of `track` into the list.
    func inserted(_ track: TrackID) {
        cached.withLock { _ = $0?.insert(track) }
    }

    /// Follows the removal of `track` (its last occurrence) from the list.
    func removed(_ track: TrackID) {
        cached.withLock { _ = $0?.remove(track) }
    }

    /// Forgets the set after the list changed otherwise.
    func invalidate() {
        cached.withLock { $0 = nil }
    }
}
