import DBus
import Synchronization

/// The metadata of each track last written into a GetTracksMetadata reply, whose strings are
/// then known to be writable: while the handler answers the same metadata for that track, it is
/// written again without checking each string for what libdbus refuses.
///
/// Panels page through the track list again and again (GetTracksMetadata of the visible rows).
/// Reuse is decided by comparing the metadata itself, so a tag change (or a handler that changed
/// without TrackMetadataChanged) is never answered with stale values. At most ``capacity`` tracks
/// are kept, so a 100 000-track queue does not keep a copy of every track; when full, the cache
/// starts over.
final class TrackMetadataCache: Sendable {
    /// The most tracks kept: a few screens of rows.
    static let capacity = 512

    private let entries = Mutex<[TrackID: Metadata]>([:])

    /// Writes `metadata`'s map into `writer`, remembering it once it was written whole.
    func write(_ metadata: Metadata, to writer: inout DBusMessageWriter) {
        guard let id = metadata.trackID else { return metadata.write(to: &writer) }
        // Compared in place: copying the cached metadata out would retain every string of it.
        if entries.withLock({ $0[id] == metadata }) {
            return metadata.write(to: &writer, checked: false)
        }
        metadata.write(to: &writer)
        guard writer.isWriting else { return }
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[id] == nil { entries.removeAll(keepingCapacity: true) }
            entries[id] = metadata
        }
    }
}
