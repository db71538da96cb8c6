import LibraryFormats
import DBus

/// The bus side of ``MediaAdmissionRule`` for URIs a client hands over (`OpenUri`, `AddTrack`):
/// the rule's refusal as a D-Bus error — `LimitsExceeded` for an overlong URI, `NotSupported`
/// for another scheme, `InvalidArgs` for the rest — whose message quotes at most an excerpt of
/// the URI, with any credentials removed.
enum MediaAdmission {
    static let maximumURILength = MediaAdmissionRule.maximumLength
    /// The longest queue clients may build one track at a time; as many as a playlist may hold.
    static let maximumQueueLength = PlaylistLimits().maxEntries

    /// Refuses to grow a queue of `length` entries past ``maximumQueueLength``.
    static func ensureRoom(queueLength length: Int) throws(DBusError) {
        guard length < maximumQueueLength else {
            throw DBusError(.limitsExceeded, "the queue is full (\(maximumQueueLength) tracks); remove some first")
        }
    }

    /// The URI to queue for `uri` (a local file's canonical `file://` spelling, a stream's
    /// own URI), or a D-Bus error saying why not.
    static func admit(_ uri: String) throws(DBusError) -> String {
        switch MediaAdmissionRule.admit(uri: uri, maxLength: maximumURILength) {
        case .success(let address):
            return address.uri
        case .failure(.tooLong(_, let limit)):
            throw DBusError(.limitsExceeded, "URI longer than \(limit) bytes")
        case .failure(let refusal):
            let quoted = "\"\(DBusError.excerpt(URICredentials.removed(from: uri)))\": \(refusal)"
            if case .unsupportedScheme = refusal { throw DBusError(.notSupported, quoted) }
            throw DBusError(.invalidArgs, quoted)
        }
    }
}
