public import LibraryFormats
public import PlayerCore
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

    /// The lyric texts `facts` holds: the tag's and the sidecar file's. Every reader of lyrics
    /// (MPRIS metadata, the lyrics follower) goes through here, so a new source of tag text
    /// (a tag reader keeping USLT/SYLT raw) is wired in this one place.
    public static func texts(of facts: TrackFacts) -> (tag: String?, sidecar: String?) {
        (facts.tags.lyrics, facts.sidecarLyrics)
    }

    /// The plain lyrics of `facts`; see ``plainText(tagText:sidecarText:)``.
    public static func plainText(of facts: TrackFacts) -> String? {
        let (tag, sidecar) = texts(of: facts)
        return plainText(tagText: tag, sidecarText: sidecar)
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
