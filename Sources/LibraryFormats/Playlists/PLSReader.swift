/// Reads PLS: an INI file with a `[playlist]` section of `FileN=`, `TitleN=`, `LengthN=`
/// (seconds, -1 for unknown) and `NumberOfEntries=`. Entries come in order of N, whatever the
/// order of the lines.
public enum PLSReader {
    private struct Slot {
        var file: String?
        var fileLine: Int?
        var title: String?
        var length: Int64?
    }

    public static func read(_ text: String, limit: Int) -> RawPlaylist {
        var playlist = RawPlaylist()
        var slots: [Int: Slot] = [:]
        var declaredCount: Int?
        var sawHeader = false
        var inPlaylistSection = true
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = offset + 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inPlaylistSection = line.lowercased() == "[playlist]"
                sawHeader = sawHeader || inPlaylistSection
                continue
            }
            guard inPlaylistSection else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                playlist.problems.append((lineNumber, .malformed("expected Key=Value, found \"\(line.prefix(80))\"")))
                continue
            }
            let key = line[..<equals].trimmingWhitespace().lowercased()
            let value = String(line[line.index(after: equals)...])
            if key == "numberofentries" {
                declaredCount = Int(value.trimmingWhitespace())
                continue
            }
            guard let (field, index) = numberedKey(key) else { continue }
            if slots[index] == nil {
                guard slots.count < limit else {
                    playlist.truncated = true
                    continue
                }
                slots[index] = Slot()
            }
            switch field {
            case "file":
                slots[index]?.file = value
                slots[index]?.fileLine = lineNumber
            case "title":
                slots[index]?.title = value
            default:
                if let seconds = Int64(value.trimmingWhitespace()), seconds > 0, seconds < 1_000_000_000 {
                    slots[index]?.length = seconds * 1_000_000
                }
            }
        }
        if !sawHeader {
            playlist.problems.append((1, .malformed("no [playlist] section header")))
        }
        for index in slots.keys.sorted() {
            let slot = slots[index]!
            guard let file = slot.file else {
                playlist.problems.append((nil, .malformed("entry \(index) has no File\(index)")))
                continue
            }
            playlist.entries.append(RawEntry(
                location: file, line: slot.fileLine, title: slot.title, durationMicroseconds: slot.length))
        }
        if let declaredCount, declaredCount != playlist.entries.count, !playlist.truncated {
            playlist.problems.append((nil, .malformed(
                "NumberOfEntries says \(declaredCount), the playlist has \(playlist.entries.count)")))
        }
        return playlist
    }

    /// `("file", 3)` for `file3`; nil for keys that are not numbered entry fields.
    private static func numberedKey(_ key: String) -> (String, Int)? {
        for field in ["file", "title", "length"] where key.hasPrefix(field) {
            let digits = key.dropFirst(field.count)
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), let index = Int(digits), index >= 0 else {
                return nil
            }
            return (field, index)
        }
        return nil
    }
}
