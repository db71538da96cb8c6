public import DBus

extension Metadata {
    /// The `a{sv}` map, with keys in a stable order and every value of the type the spec names.
    public var dbusValue: DBusValue {
        var entries: [(String, DBusValue)] = []
        func add(_ key: String, _ value: DBusValue?) {
            if let value { entries.append((key, value)) }
        }
        func addList(_ key: String, _ values: [String]) {
            if !values.isEmpty { entries.append((key, values.dbusValue)) }
        }
        // A track id is only meaningful with a real track; NoTrack in metadata confuses clients.
        if let trackID, !trackID.isNoTrack { add("mpris:trackid", .objectPath(trackID.path)) }
        add("mpris:length", length.map(DBusValue.int64))
        add("mpris:artUrl", artURL.map(DBusValue.string))
        add("xesam:title", title.map(DBusValue.string))
        addList("xesam:artist", artists)
        add("xesam:album", album.map(DBusValue.string))
        addList("xesam:albumArtist", albumArtists)
        add("xesam:trackNumber", trackNumber.map(DBusValue.int32))
        add("xesam:discNumber", discNumber.map(DBusValue.int32))
        addList("xesam:genre", genres)
        addList("xesam:composer", composers)
        addList("xesam:lyricist", lyricists)
        addList("xesam:comment", comments)
        add("xesam:contentCreated", contentCreated.map(DBusValue.string))
        add("xesam:asText", lyrics.map(DBusValue.string))
        add("xesam:audioBPM", beatsPerMinute.map(DBusValue.int32))
        add("xesam:autoRating", autoRating.map(DBusValue.double))
        add("xesam:userRating", userRating.map(DBusValue.double))
        add("xesam:useCount", useCount.map(DBusValue.int32))
        add("xesam:firstUsed", firstUsed.map(DBusValue.string))
        add("xesam:lastUsed", lastUsed.map(DBusValue.string))
        add("xesam:url", url.map(DBusValue.string))
        for key in extra.keys.sorted() { entries.append((key, extra[key]!)) }
        return .stringVariantDictionary(entries)
    }

    /// Writes the `a{sv}` map straight into a message: the same entries, order and types as
    /// ``dbusValue``, without building it. A string with NUL stops `writer` with `InvalidArgs`.
    public func write(to writer: inout DBusMessageWriter) {
        writer.appendArray(of: .stringVariantEntry) { map in
            func add(_ key: String, _ value: String?) {
                if let value { map.appendEntry(key, variantOf: .string) { $0.append(value) } }
            }
            func add(_ key: String, _ value: Int32?) {
                if let value { map.appendEntry(key, variantOf: .int32) { $0.append(value) } }
            }
            func add(_ key: String, _ value: Double?) {
                if let value { map.appendEntry(key, variantOf: .double) { $0.append(value) } }
            }
            func addList(_ key: String, _ values: [String]) {
                if !values.isEmpty { map.appendEntry(key, variantOf: .stringArray) { $0.append(values) } }
            }
            if let trackID, !trackID.isNoTrack {
                map.appendEntry("mpris:trackid", variantOf: .objectPath) { $0.append(trackID.path) }
            }
            if let length { map.appendEntry("mpris:length", variantOf: .int64) { $0.append(length) } }
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
                for key in extra.keys.sorted() {
                    let value = extra[key]!
                    map.appendEntry(key, variantOf: DBusSignatureText(value.type)) { $0.append(value) }
                }
            }
        }
    }

    /// Reads a metadata map as a client receives it. Known keys with an unexpected type are
    /// kept in ``extra`` rather than dropped.
    public init(dbusValue: DBusValue) {
        self.init()
        guard case .dictionary(.string, .variant, let entries) = dbusValue else { return }
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            let value = entry.value.unwrapped
            if !assign(key, value) { extra[key] = value }
        }
    }

    private mutating func assign(_ key: String, _ value: DBusValue) -> Bool {
        switch (key, value) {
        case ("mpris:trackid", .objectPath(let path)): trackID = TrackID(received: path)
        case ("mpris:length", .int64(let v)): length = v
        case ("mpris:artUrl", .string(let v)): artURL = v
        case ("xesam:title", .string(let v)): title = v
        case ("xesam:album", .string(let v)): album = v
        case ("xesam:asText", .string(let v)): lyrics = v
        case ("xesam:contentCreated", .string(let v)): contentCreated = v
        case ("xesam:firstUsed", .string(let v)): firstUsed = v
        case ("xesam:lastUsed", .string(let v)): lastUsed = v
        case ("xesam:url", .string(let v)): url = v
        case ("xesam:trackNumber", .int32(let v)): trackNumber = v
        case ("xesam:discNumber", .int32(let v)): discNumber = v
        case ("xesam:audioBPM", .int32(let v)): beatsPerMinute = v
        case ("xesam:useCount", .int32(let v)): useCount = v
        case ("xesam:autoRating", .double(let v)): autoRating = v
        case ("xesam:userRating", .double(let v)): userRating = v
        case ("xesam:artist", .array(.string, _)): artists = (try? [String](dbusValue: value)) ?? []
        case ("xesam:albumArtist", .array(.string, _)): albumArtists = (try? [String](dbusValue: value)) ?? []
        case ("xesam:genre", .array(.string, _)): genres = (try? [String](dbusValue: value)) ?? []
        case ("xesam:composer", .array(.string, _)): composers = (try? [String](dbusValue: value)) ?? []
        case ("xesam:lyricist", .array(.string, _)): lyricists = (try? [String](dbusValue: value)) ?? []
        case ("xesam:comment", .array(.string, _)): comments = (try? [String](dbusValue: value)) ?? []
        default: return false
        }
        return true
    }
}
