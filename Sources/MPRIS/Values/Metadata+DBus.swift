public import DBus

extension Metadata {
    /// The `a{sv}` map, with keys in a stable order and every value of the type the spec names.
    public var dbusValue: DBusValue {
        var entries: [(String, DBusValue)] = []
        forEachEntry { key, entry in
            switch entry {
            case .trackID(let track): entries.append((key, .objectPath(track.path)))
            case .int64(let number): entries.append((key, .int64(number)))
            case .int32(let number): entries.append((key, .int32(number)))
            case .double(let number): entries.append((key, .double(number)))
            case .string(let text): entries.append((key, .string(text)))
            case .strings(let texts): entries.append((key, texts.dbusValue))
            case .other(let value): entries.append((key, value))
            }
        }
        return .stringVariantDictionary(entries)
    }

    /// Writes the `a{sv}` map straight into a message: the same entries, order and types as
    /// ``dbusValue``, without building it. A string with NUL stops `writer` with `InvalidArgs`.
    public func write(to writer: inout DBusMessageWriter) {
        writer.appendArray(of: .stringVariantEntry) { map in
            forEachEntry { key, entry in
                switch entry {
                case .trackID(let track): map.appendEntry(key, variantOf: .objectPath) { track.appendPath(to: &$0) }
                case .int64(let number): map.appendEntry(key, variantOf: .int64) { $0.append(number) }
                case .int32(let number): map.appendEntry(key, variantOf: .int32) { $0.append(number) }
                case .double(let number): map.appendEntry(key, variantOf: .double) { $0.append(number) }
                case .string(let text): map.appendEntry(key, variantOf: .string) { $0.append(text) }
                case .strings(let texts): map.appendEntry(key, variantOf: .stringArray) { $0.append(texts) }
                case .other(let value):
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
