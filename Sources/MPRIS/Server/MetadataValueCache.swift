import DBus
import Synchronization

/// The `a{sv}` of the last metadata read, reused while the metadata stays the same.
///
/// Serves the `Metadata` property's getter, which Get and GetAll use only when the property's
/// writer stops (they write the map straight into the reply otherwise), and any reader of the
/// property as a value; comparing two `Metadata` values costs a fraction of building the map.
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
