import LibraryFormats
import DBus
import Foundation

/// Decides whether a URI a client hands over (OpenUri, AddTrack) may enter the queue: a local
/// file must exist and be a regular, readable file; streams must be http(s); everything is
/// bounded in length. Refusals are `InvalidArgs` with the reason.
enum MediaAdmission {
    static let maximumURILength = 8192
    /// The longest queue clients may build one track at a time; as many as a playlist may hold.
    static let maximumQueueLength = PlaylistLimits().maxEntries

    /// Refuses to grow a queue of `length` entries past ``maximumQueueLength``.
    static func ensureRoom(queueLength length: Int) throws(DBusError) {
        guard length < maximumQueueLength else {
            throw DBusError(.limitsExceeded, "the queue is full (\(maximumQueueLength) tracks); remove some first")
        }
    }

    /// The URI to queue for `uri`, or a D-Bus error saying why not.
    static func admit(_ uri: String) throws(DBusError) -> String {
        guard uri.utf8.count <= maximumURILength else {
            throw DBusError(.limitsExceeded, "URI longer than \(maximumURILength) bytes")
        }
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased() else {
            throw DBusError(.invalidArgs, "\"\(uri.prefix(200))\" is not a URI")
        }
        switch scheme {
        case "http", "https":
            guard url.host?.isEmpty == false else { throw DBusError(.invalidArgs, "\(uri.prefix(200)) has no host") }
            return uri
        case "file":
            let path = url.path
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw DBusError(.invalidArgs, "\(path.prefix(200)) does not exist")
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                throw DBusError(.invalidArgs, "\(path.prefix(200)) is not a regular file")
            }
            guard access(path, R_OK) == 0 else {
                throw DBusError(.invalidArgs, "\(path.prefix(200)) is not readable")
            }
            return url.absoluteString
        default:
            throw DBusError(.notSupported, "URI scheme \"\(scheme)\" is not supported")
        }
    }
}
