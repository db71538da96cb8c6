import DBus

extension Metadata {
    /// One entry of the metadata map, with the type the spec names for its key.
    enum Entry {
        case trackID(TrackID)
        case int64(Int64)
        case int32(Int32)
        case double(Double)
        case string(String)
        case strings([String])
        /// A key outside the spec's list, kept with whatever type it came with.
        case other(DBusValue)
    }

    /// Visits the map's entries in their stable order, skipping absent values and empty lists.
    ///
    /// The one list of keys behind every encoding (``dbusValue``, ``write(to:)``, ``prepared``),
    /// so a client sees the same map whichever path wrote it.
    func forEachEntry(_ visit: (String, Entry) -> Void) {
        func add(_ key: String, _ value: String?) {
            if let value { visit(key, .string(value)) }
        }
        func add(_ key: String, _ value: Int32?) {
            if let value { visit(key, .int32(value)) }
        }
        func add(_ key: String, _ value: Double?) {
            if let value { visit(key, .double(value)) }
        }
        func addList(_ key: String, _ values: [String]) {
            if !values.isEmpty { visit(key, .strings(values)) }
        }
        // A track id is only meaningful with a real track; NoTrack in metadata confuses clients.
        if let trackID, !trackID.isNoTrack { visit("mpris:trackid", .trackID(trackID)) }
        if let length { visit("mpris:length", .int64(length)) }
        add("mpris:artUrl", artURL)
        add("xesam:title", title)
        addList("xesam:artist", artists)
        add("xesam:album", album)
        addList("xesam:albumArtist", albumArtists)
        add("xesam:trackNumber", trackNumber)
        add("xesam:discNumber", discNumber)
        addList("xesam:genre", genres)
        addList("xesam:composer", composers)
        addList("xesam:lyricist", lyricists)
        addList("xesam:comment", comments)
        add("xesam:contentCreated", contentCreated)
        add("xesam:asText", lyrics)
        add("xesam:audioBPM", beatsPerMinute)
        add("xesam:autoRating", autoRating)
        add("xesam:userRating", userRating)
        add("xesam:useCount", useCount)
        add("xesam:firstUsed", firstUsed)
        add("xesam:lastUsed", lastUsed)
        add("xesam:url", url)
        if !extra.isEmpty {
            for key in extra.keys.sorted() { visit(key, .other(extra[key]!)) }
        }
    }
}
