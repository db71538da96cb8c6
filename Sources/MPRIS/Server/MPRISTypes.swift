import DBus

/// The compound D-Bus types that several MPRIS declarations and replies share, built once.
///
/// Statics rather than locals also keep their `DBusType` boxes out of the method closures: a
/// `DBusType` payload case other than the first stores its box pointer with the case number in
/// the pointer's spare high bits, which LeakSanitizer does not recognise as a pointer. Built
/// here once, the boxes have a single allocation site that Tests/Sanitizers/lsan.supp names.
enum MPRISTypes {
    /// `a{sv}`: one track's metadata.
    static let metadata = DBusType.dictionary(key: .string, value: .variant)
    /// `(oss)`: one playlist's id, name and icon.
    static let playlist = DBusType.structure([.objectPath, .string, .string])
}
