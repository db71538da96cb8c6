import Foundation
import TestSupport

/// What a test can read from linnet's session file without linnet's own decoder: the tests
/// must notice a file that is torn or of an unexpected shape, not repair it.
struct SessionFileSnapshot: Equatable {
    /// The queue entry ids, in queue order (the bus track ids end in them).
    var entryIDs: [UInt64]
    /// The saved position in the current entry, in microseconds.
    var position: Int64
    /// The index of the current entry, if any.
    var currentIndex: Int?
    /// The saved volume.
    var volume: Double

    /// Parses `file`; throws if it is missing, not JSON or not shaped like a version 1 session.
    init(contentsOf file: URL) throws {
        let data = try Data(contentsOf: file)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestSupportError("session file is not a JSON object: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        guard root["version"] as? Int == 1, let state = root["state"] as? [String: Any],
            let queue = state["queue"] as? [String: Any], let entries = queue["entries"] as? [[String: Any]],
            let position = state["positionMicroseconds"] as? NSNumber, let volume = state["volume"] as? NSNumber
        else {
            throw TestSupportError("session file lacks version/state/queue: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        entryIDs = try entries.map { entry in
            guard let id = entry["id"] as? NSNumber, entry["uri"] is String else {
                throw TestSupportError("queue entry without id or uri: \(entry)")
            }
            return id.uint64Value
        }
        self.position = position.int64Value
        currentIndex = (queue["currentIndex"] as? NSNumber)?.intValue
        self.volume = volume.doubleValue
    }

    /// The entry ids of bus track ids such as `/org/linnet/track/7`.
    static func entryIDs(ofTracks tracks: [String]) -> [UInt64] {
        tracks.compactMap { UInt64($0.split(separator: "/").last ?? "") }
    }
}

/// Names in a state directory other than the session file itself: temporary files a killed
/// save left, or files set aside as unusable.
func strayStateFiles(in directory: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    // `lock` is the state folder's lock (StateDirectoryLock), held open for linnet's life.
    return names.filter { $0 != "session.json" && $0 != "lock" }.sorted()
}
