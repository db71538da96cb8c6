import DBus
import MPRIS
import PlayerCore
import Synchronization

/// Queue entries' prepared metadata maps (``Metadata/prepared``), so a panel paging through the
/// queue with GetTracksMetadata gets its rows without their metadata being built again.
///
/// A map is a function of its entry (id and URI) and the entry's facts alone (``Metadata/init(_:)``
/// reads nothing else), so a slot whose entry and facts equal the asked ones holds the right
/// map: a tag change makes new facts and misses. Facts compare by identity first (one box per
/// change), entries by their strings' storage first, so a hit builds nothing.
///
/// Direct-mapped by entry id: entry ids are handed out in sequence, so the rows of a page land
/// in distinct slots, and a colliding entry simply replaces the slot's. Bounded, so a
/// 100 000-track queue keeps at most ``capacity`` maps (a few hundred bytes each).
final class PreparedMetadataCache: Sendable {
    /// The most maps kept: many screens of rows.
    static let capacity = 1024

    private struct Slot {
        let entry: QueueEntry
        let facts: TrackFacts
        let map: DBusPreparedDictionary
    }

    private let slots = Mutex<[Slot?]>(Array(repeating: nil, count: capacity))

    /// The prepared map of `entry` with `facts`.
    func map(for entry: QueueEntry, facts: TrackFacts) -> DBusPreparedDictionary {
        let index = Int(entry.id % UInt64(Self.capacity))
        let cached = slots.withLock { slots -> DBusPreparedDictionary? in
            guard let slot = slots[index], slot.entry == entry, slot.facts == facts else { return nil }
            return slot.map
        }
        if let cached { return cached }
        let map = Metadata(TrackItem(entry: entry, facts: facts)).prepared
        slots.withLock { $0[index] = Slot(entry: entry, facts: facts, map: map) }
        return map
    }
}
