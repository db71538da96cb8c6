public import LibraryFormats
import Synchronization

/// The one place that turns a track's lyric texts into ``Lyrics``: what a tag carries (ID3
/// USLT/SYLT, Vorbis `LYRICS`, GStreamer's `lyrics` tag; LRC or plain text) and what a sidecar
/// file next to it holds (`.lrc` or `.txt`). MPRIS `xesam:asText` shows the chosen lyrics'
/// plain text; `io.linnet.Linnet1` follows their synced lines.
public enum TrackLyrics {
    /// The lyrics to use for a track whose tags carry `tagText` and whose sidecar file holds
    /// `sidecarText` (either may be LRC or plain text); nil when neither has words.
    ///
    /// Synced lyrics beat plain ones, wherever each comes from: a user who put an `.lrc` next to
    /// a file with plain lyrics in its tags wants them to follow along. Otherwise the tags'
    /// lyrics come first, as they did before sidecars could be synced.
    public static func resolve(tagText: String?, sidecarText: String?) -> Lyrics? {
        let fromTags = parsed(tagText)
        let fromSidecar = parsed(sidecarText)
        if let fromSidecar, !fromSidecar.synced.isEmpty, fromTags?.synced.isEmpty ?? true { return fromSidecar }
        return fromTags ?? fromSidecar
    }

    /// The plain lyrics (no time stamps or LRC tags) for `xesam:asText`; nil when there are none.
    /// Metadata is rebuilt at every publication, so the last answer is kept: the current track's
    /// lyrics are parsed once, not at each PlayPause.
    public static func plainText(tagText: String?, sidecarText: String?) -> String? {
        guard tagText != nil || sidecarText != nil else { return nil }
        let key = Key(tagText: tagText, sidecarText: sidecarText)
        if let hit = lastPlain.withLock({ $0?.key == key ? $0 : nil }) { return hit.plain }
        let plain = resolve(tagText: tagText, sidecarText: sidecarText).map(\.plainText)
        lastPlain.withLock { $0 = (key, plain) }
        return plain
    }

    private struct Key: Equatable {
        var tagText: String?
        var sidecarText: String?
    }

    private static let lastPlain = Mutex<(key: Key, plain: String?)?>(nil)

    private static func parsed(_ text: String?) -> Lyrics? {
        guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
        let lyrics = LRCParser.parse(text)
        return lyrics.plainText.isEmpty && lyrics.synced.isEmpty ? nil : lyrics
    }
}
