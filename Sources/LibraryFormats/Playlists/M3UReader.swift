import FoundationEssentials

/// Reads M3U and M3U8: one location per line, `#` comments, and the extended
/// `#EXTINF:seconds[ attributes],Artist - Title` line describing the next location.
public enum M3UReader {
    public static func read(_ text: String, limit: Int) -> RawPlaylist {
        var playlist = RawPlaylist()
        var pending: RawEntry?
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.uppercased().hasPrefix("#EXTINF:") {
                    pending = extendedInfo(line.dropFirst("#EXTINF:".count))
                }
                continue
            }
            guard playlist.entries.count < limit else {
                playlist.truncated = true
                break
            }
            var entry = pending ?? RawEntry(location: "")
            entry.location = line
            entry.line = offset + 1
            playlist.entries.append(entry)
            pending = nil
        }
        return playlist
    }

    /// The hints of an `#EXTINF` line; a duration of -1 (or anything unparsable) means unknown.
    private static func extendedInfo(_ info: Substring) -> RawEntry {
        var entry = RawEntry(location: "")
        let comma = info.firstIndex(of: ",") ?? info.endIndex
        // Attributes such as `tvg-id="…"` may follow the duration, separated by spaces.
        let durationText = info[..<comma].split(separator: " ").first.map(String.init) ?? ""
        if let seconds = Double(durationText), seconds > 0, seconds < 1e9 {
            entry.durationMicroseconds = Int64((seconds * 1_000_000).rounded())
        }
        guard comma < info.endIndex else { return entry }
        let display = info[info.index(after: comma)...].trimmingWhitespace()
        if let separator = display.firstRange(of: " - ") {
            entry.artist = String(display[..<separator.lowerBound])
            entry.title = String(display[separator.upperBound...])
        } else {
            entry.title = display
        }
        return entry
    }
}
