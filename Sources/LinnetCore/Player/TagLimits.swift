/// How much of a file's or stream's tags linnet keeps and publishes.
///
/// Tags are written by whoever made the file: a hostile or broken one can carry a title of many
/// megabytes or thousands of artists, and every byte kept would sit in the queue and go out in
/// each Metadata reply and PropertiesChanged, to every panel on the bus. The limits are far above
/// any real tag (lyrics of a long song are a few KiB), so what real files say passes untouched;
/// longer text is cut at a character boundary, longer lists are cut short.
enum TagLimits {
    /// A single-line field: title, album, comment, date.
    static let textBytes = 4 * 1024
    /// Lyrics (plain or LRC).
    static let lyricsBytes = 256 * 1024
    /// Entries of a list field (artists, album artists, genres, composers)...
    static let listEntries = 32
    /// ...and the length of each.
    static let entryBytes = 1024

    /// `text` cut to at most `bytes` UTF-8 bytes, never inside a character.
    static func text(_ text: String?, bytes: Int = textBytes) -> String? {
        guard let text, text.utf8.count > bytes else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            let size = text.utf8.distance(from: index, to: next)
            guard kept + size <= bytes else { break }
            kept += size
            end = next
        }
        return String(text[..<end])
    }

    /// `entries` cut to ``listEntries``, each cut to ``entryBytes``.
    static func list(_ entries: [String]) -> [String] {
        guard entries.count > listEntries || entries.contains(where: { $0.utf8.count > entryBytes }) else { return entries }
        return entries.prefix(listEntries).map { text($0, bytes: entryBytes) ?? "" }
    }
}
