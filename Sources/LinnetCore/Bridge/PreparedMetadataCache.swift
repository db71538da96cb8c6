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
///
/// GetTracksMetadata asks through ``keptMap(for:facts:)``, which prepares a row only the second
/// time it is asked for: preparing costs more than writing the row once, so a page read once (a
/// panel jumping through a long list) is written directly, and a page read again is kept.
final class PreparedMetadataCache: Sendable {
    /// The most maps kept: many screens of rows.
    static let capacity = 1024

    private struct Slot {
        let entry: QueueEntry
        let facts: TrackFacts
        /// Nil while the entry has been asked for once only.
        let map: DBusPreparedDictionary?
    }

    private let slots = Mutex<[Slot?]>(Array(repeating: nil, count: capacity))

    /// The prepared map of `entry` with `facts`, prepared and kept now if it is not kept yet.
    func map(for entry: QueueEntry, facts: TrackFacts) -> DBusPreparedDictionary {
        if case .kept(let map) = lookUp(entry, facts) { return map }
        return keep(entry, facts)
    }

    /// The kept map of `entry` with `facts` if this entry was asked for before with the same
    /// facts (prepared and kept on the second request); nil the first time, when only the request
    /// is noted and the caller writes the row itself (``Metadata/write(to:)``, the same map).
    func keptMap(for entry: QueueEntry, facts: TrackFacts) -> DBusPreparedDictionary? {
        switch lookUp(entry, facts) {
        case .kept(let map): return map
        case .askedBefore: return keep(entry, facts)
        case .new:
            slots.withLock { $0[Self.slot(of: entry)] = Slot(entry: entry, facts: facts, map: nil) }
            return nil
        }
    }

    private enum Lookup {
        case kept(DBusPreparedDictionary)
        case askedBefore
        case new
    }

    private static func slot(of entry: QueueEntry) -> Int {
        Int(entry.id % UInt64(capacity))
    }

    private func lookUp(_ entry: QueueEntry, _ facts: TrackFacts) -> Lookup {
        slots.withLock { slots in
            guard let slot = slots[Self.slot(of: entry)], slot.entry == entry, slot.facts == facts else { return .new }
            return slot.map.map(Lookup.kept) ?? .askedBefore
        }
    }

    private func keep(_ entry: QueueEntry, _ facts: TrackFacts) -> DBusPreparedDictionary {
        let map = Metadata(TrackItem(entry: entry, facts: facts)).prepared
        slots.withLock { $0[Self.slot(of: entry)] = Slot(entry: entry, facts: facts, map: map) }
        return map
    }
}
