import DBus
import Synchronization

/// The `a{sv}` of the last metadata read, reused while the metadata stays the same.
///
/// Panels read `Metadata` far more often than it changes (every GetAll of the Player), and
/// building the map was ~10% of linnet's CPU per GetAll in `make bench`; comparing two
/// `Metadata` values costs a fraction of that.
final class MetadataValueCache: Sendable {
    private let last = Mutex<(metadata: Metadata, value: DBusValue)?>(nil)

    /// `metadata.dbusValue`, built only when `metadata` differs from the previous call's.
    func value(for metadata: Metadata) -> DBusValue {
        if let cached = last.withLock({ $0 }), cached.metadata == metadata { return cached.value }
        let value = metadata.dbusValue
        last.withLock { $0 = (metadata, value) }
        return value
    }
}
