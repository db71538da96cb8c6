public import DBus

extension Metadata {
    /// The `a{sv}` map laid out once for libdbus (``DBusPreparedDictionary``), for a track's
    /// metadata that goes into many GetTracksMetadata replies: the same entries, order and types
    /// as ``dbusValue`` and ``write(to:)``.
    public var prepared: DBusPreparedDictionary {
        DBusPreparedDictionary { add in
            forEachEntry { key, entry in
                switch entry {
                case .trackID(let track): add(key, track.preparedPath)
                case .int64(let number): add(key, .int64(number))
                case .int32(let number): add(key, .int32(number))
                case .double(let number): add(key, .double(number))
                case .string(let text): add(key, .string(text))
                case .strings(let texts): add(key, .strings(texts))
                case .other(let value): add(key, .other(value))
                }
            }
        }
    }
}
