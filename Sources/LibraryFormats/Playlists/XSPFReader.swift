/// Reads XSPF: `playlist/trackList/track` elements with `location` (the first one of a track
/// is used; XSPF allows alternatives), `title`, `creator` and `duration` (milliseconds).
public enum XSPFReader {
    /// Deeper documents are refused: no playlist needs it, and the element stack would grow
    /// with the file.
    public static let maxElementDepth = 256

    private static let trackFields: Set<String> = ["location", "title", "creator", "duration"]

    public static func read(_ text: String, limit: Int) -> RawPlaylist {
        var playlist = RawPlaylist()
        var reader = XMLReader(text)
        var stack: [String] = []
        var track: [String: String]?
        var fieldText = ""
        var sawTrackList = false
        while let event = reader.next() {
            switch event {
            case .start(let name):
                guard stack.count < maxElementDepth else {
                    playlist.problems.append((nil, .malformed("elements nested more than \(maxElementDepth) deep")))
                    return playlist
                }
                stack.append(name)
                if name == "trackList" { sawTrackList = true }
                if name == "track", stack.dropLast().last == "trackList" { track = [:] }
                if track != nil, trackFields.contains(name), stack.dropLast().last == "track" { fieldText = "" }
            case .text(let content):
                if track != nil, let name = stack.last, trackFields.contains(name),
                   stack.dropLast().last == "track" {
                    fieldText += content
                }
            case .end(let name):
                // Unbalanced end tags are forgiven: close up to the matching start, if any.
                guard let open = stack.lastIndex(of: name) else { continue }
                if name != "track", trackFields.contains(name), open > 0, stack[open - 1] == "track",
                   track != nil, track?[name] == nil {
                    track?[name] = fieldText.trimmingWhitespace()
                }
                if name == "track", let finished = track, open > 0, stack[open - 1] == "trackList" {
                    track = nil
                    guard playlist.entries.count < limit else {
                        playlist.truncated = true
                        return playlist
                    }
                    append(finished, to: &playlist)
                }
                stack.removeSubrange(open...)
            }
        }
        if !sawTrackList {
            playlist.problems.append((nil, .malformed("no <trackList> element: not an XSPF playlist")))
        }
        return playlist
    }

    private static func append(_ fields: [String: String], to playlist: inout RawPlaylist) {
        guard let location = fields["location"], !location.isEmpty else {
            playlist.problems.append((nil, .malformed("a <track> without <location>")))
            return
        }
        var entry = RawEntry(location: location, title: fields["title"], artist: fields["creator"])
        entry.isURIReference = true
        if let milliseconds = fields["duration"].flatMap({ Int64($0) }), milliseconds > 0, milliseconds < 1 << 40 {
            entry.durationMicroseconds = milliseconds * 1000
        }
        playlist.entries.append(entry)
    }
}
