public import DBus

extension Metadata {
    /// The `a{sv}` map laid out once for libdbus (``DBusPreparedDictionary``), for a track's
    /// metadata that goes into many GetTracksMetadata replies: the same entries, order and types
    /// as ``dbusValue`` and ``write(to:)``.
    public var prepared: DBusPreparedDictionary {
        let extraKeys = extra.isEmpty ? [] : extra.keys.sorted()
        return DBusPreparedDictionary { entry in
            func add(_ key: String, _ value: String?) {
                if let value { entry(key, .string(value)) }
            }
            func add(_ key: String, _ value: Int32?) {
                if let value { entry(key, .int32(value)) }
            }
            func add(_ key: String, _ value: Double?) {
                if let value { entry(key, .double(value)) }
            }
            func addList(_ key: String, _ values: [String]) {
                if !values.isEmpty { entry(key, .strings(values)) }
            }
            if let trackID, !trackID.isNoTrack { entry("mpris:trackid", trackID.preparedPath) }
            if let length { entry("mpris:length", .int64(length)) }
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
            for key in extraKeys { entry(key, .other(extra[key]!)) }
        }
    }
}
