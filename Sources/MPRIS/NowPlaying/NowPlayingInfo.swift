/// What is playing, in the terms of Apple's now-playing info: title, artist, album, duration,
/// elapsed time and rate, artwork and lyrics. ``NowPlayingSession`` turns it into MPRIS metadata
/// and position.
public struct NowPlayingInfo: Sendable, Equatable {
    /// The item's title.
    public var title: String?
    /// The performing artists.
    public var artists: [String]
    /// The album title.
    public var album: String?
    /// The item's length, if known.
    public var duration: Duration?
    /// How far into the item playback is, at the moment this info is set.
    public var elapsedTime: Duration
    /// Playback speed (1 is normal).
    public var rate: Double
    /// A local artwork image; published as a `file://` URI.
    public var artworkFile: String?
    /// Plain-text lyrics.
    public var lyrics: String?
    /// A stable identifier of the item, so re-setting the same item is not a track change.
    public var identifier: String?

    /// Describes an item.
    public init(title: String? = nil, artists: [String] = [], album: String? = nil, duration: Duration? = nil,
                elapsedTime: Duration = .zero, rate: Double = 1, artworkFile: String? = nil,
                lyrics: String? = nil, identifier: String? = nil) {
        self.title = title
        self.artists = artists
        self.album = album
        self.duration = duration
        self.elapsedTime = elapsedTime
        self.rate = rate
        self.artworkFile = artworkFile
        self.lyrics = lyrics
        self.identifier = identifier
    }
}

extension Duration {
    /// This duration in whole microseconds, MPRIS's time unit.
    public var microseconds: Microseconds {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }
}
