import DBus
import Synchronization

/// The `a{sv}` of each track's metadata last sent in a GetTracksMetadata reply, reused while the
/// handler answers the same metadata for that track.
///
/// Panels page through the track list again and again (GetTracksMetadata of the visible rows);
/// building the map is most of the server's own work per track. Reuse is decided by comparing
/// the metadata itself, so a tag change (or a handler that changed without TrackMetadataChanged)
/// is never answered with a stale map. At most ``capacity`` tracks are kept, so a 100 000-track
/// queue does not keep an encoded copy of every track; when full, the cache starts over.
final class TrackMetadataCache: Sendable {
    /// The most tracks kept: a few screens of rows.
    static let capacity = 512

    private let entries = Mutex<[TrackID: (metadata: Metadata, value: DBusValue)]>([:])

    /// `metadata.dbusValue`, built only when this track's metadata differs from the last one.
    func value(for metadata: Metadata) -> DBusValue {
        guard let id = metadata.trackID else { return metadata.dbusValue }
        if let cached = entries.withLock({ $0[id] }), cached.metadata == metadata { return cached.value }
        let value = metadata.dbusValue
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[id] == nil { entries.removeAll(keepingCapacity: true) }
            entries[id] = (metadata, value)
        }
        return value
    }
}
