import Synchronization

/// The set of published track ids, kept until the track list changes.
///
/// GetTracksMetadata answers only for tracks in the list; hashing every id of a 10 000-track
/// list on each call made a 20-id request take ~2 ms in `make bench`. The cached set is reused
/// while the list is the same array (an O(1) identity check) or equal to it.
final class TrackSetCache: Sendable {
    private let cached = Mutex<(tracks: [TrackID], set: Set<TrackID>)?>(nil)

    /// The ids of `tracks` as a set.
    func set(of tracks: [TrackID]) -> Set<TrackID> {
        if let cached = cached.withLock({ $0 }), cached.tracks == tracks { return cached.set }
        let set = Set(tracks)
        cached.withLock { $0 = (tracks, set) }
        return set
    }
}
