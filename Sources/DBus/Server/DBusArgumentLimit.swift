/// How large one method argument may be. The router checks it on the received message, before
/// the argument becomes a ``DBusValue`` or a `String`, so an oversized call costs the service
/// no more than reading the message: it is answered `org.freedesktop.DBus.Error.LimitsExceeded`
/// with an excerpt of the offending value (see ``DBusError/excerpt(_:maxBytes:)``).
///
/// Every bound applies at every depth of the argument, inside variants too: the strings of an
/// `a{sv}` are its keys and the strings in its values alike.
public struct DBusArgumentLimit: Sendable, Hashable {
    /// The longest string, object path or signature, in bytes of UTF-8.
    public var maxStringBytes: Int
    /// The most elements in any one array or dictionary.
    public var maxElements: Int
    /// The most values in the whole argument, counting containers, dictionary entries and
    /// variants as one each: bounds the work of a deeply nested argument.
    public var maxValues: Int

    /// A limit on strings, arrays and nesting.
    public init(maxStringBytes: Int, maxElements: Int = 0, maxValues: Int = 1) {
        self.maxStringBytes = maxStringBytes
        self.maxElements = maxElements
        self.maxValues = maxValues
    }

    /// A plain string of at most `maxBytes` bytes.
    public static func string(maxBytes: Int) -> DBusArgumentLimit {
        DBusArgumentLimit(maxStringBytes: maxBytes)
    }

    /// A dictionary of at most `maxEntries` entries whose keys and values (variants holding
    /// basic values) hold strings of at most `maxStringBytes`.
    public static func dictionary(maxEntries: Int, maxStringBytes: Int) -> DBusArgumentLimit {
        // Each entry is an entry, a key, a variant and its value; the dictionary is one more.
        DBusArgumentLimit(maxStringBytes: maxStringBytes, maxElements: maxEntries, maxValues: 4 * maxEntries + 1)
    }

    /// Where introspection publishes the limit: one annotation per bound, on the argument.
    public static let annotationPrefix = "io.linnet.DBus.Limit."

    /// The annotations that publish this limit in introspection data.
    public var annotations: [DBusAnnotation] {
        var annotations = [DBusAnnotation(name: Self.annotationPrefix + "MaxStringBytes", value: String(maxStringBytes))]
        if maxElements > 0 {
            annotations.append(DBusAnnotation(name: Self.annotationPrefix + "MaxElements", value: String(maxElements)))
        }
        if maxValues > 1 {
            annotations.append(DBusAnnotation(name: Self.annotationPrefix + "MaxValues", value: String(maxValues)))
        }
        return annotations
    }
}
