import Playback
public import PlayerCore

/// The engine's and the resolver's values as the player machine's inputs.
extension TrackTags {
    /// The tags of `metadata` the player publishes, within ``TagLimits``; the values an
    /// album's tracks repeat are shared through ``TagValueInterner``.
    init(_ metadata: TrackMetadata) {
        self.init()
        let shared = TagValueInterner.shared
        title = TagLimits.text(metadata.title)
        artists = shared.list(TagLimits.list(metadata.artists))
        album = shared.string(TagLimits.text(metadata.album))
        albumArtists = shared.list(TagLimits.list(metadata.albumArtists))
        trackNumber = metadata.trackNumber
        discNumber = metadata.discNumber
        genres = shared.list(TagLimits.list(metadata.genres))
        composers = shared.list(TagLimits.list(metadata.composers))
        comment = TagLimits.text(metadata.comment)
        date = shared.string(TagLimits.text(metadata.date))
        lyrics = TagLimits.text(metadata.lyrics, bytes: TagLimits.lyricsBytes)
        beatsPerMinute = metadata.beatsPerMinute
        duration = metadata.durationMicroseconds.map { .microseconds($0) }
        artURI = shared.string(metadata.artURI)
    }
}

extension NewTrack {
    /// A resolved item with what it already tells: playlist hints, and tags if it was scanned.
    public init(_ item: PlayableItem) {
        self.init(uri: item.uri, facts: TrackFacts(
            hintTitle: item.title, hintArtist: item.artist, duration: item.durationMicroseconds.map { .microseconds($0) },
            scannedTags: item.scanned.map { TrackTags($0.metadata) },
            scannedDuration: item.scanned?.durationMicroseconds.map { .microseconds($0) }, sidecarLyrics: item.sidecarLyrics))
    }
}

extension EngineReport {
    /// What the player acts on in `event`; nil for what it leaves alone (transient engine states
    /// must not make panels flicker: the transport follows the user's intent).
    init?(_ event: PlaybackEvent) {
        switch event {
        case .aboutToFinish(_, let next): self = .aboutToFinish(handsOverNext: next != nil)
        case .trackStarted(let uri): self = .trackStarted(uri: uri)
        case .endOfStream: self = .endOfStream
        case .error(let failure):
            self = .failed(EngineFailure(
                uri: failure.uri, message: failure.message, currentTrackContinues: failure.currentTrackContinues))
        case .metadataChanged(let uri, let tags): self = .tags(uri: uri, TrackTags(tags))
        case .durationChanged(let uri, let microseconds): self = .duration(uri: uri, .microseconds(microseconds))
        case .soundServerRequest(.pause), .soundServerRequest(.stop): self = .soundServer(.pause)
        case .soundServerRequest(.resume): self = .soundServer(.resume)
        case .volumeChanged(let volume, let muted): self = .mixerVolume(volume, muted: muted)
        case .outputRouteChanged(_, let change): self = .routeChanged(lostRoute: change.lostRoute)
        case .seekCompleted: self = .seekCompleted
        case .stateChanged, .buffering, .warning: return nil
        }
    }
}
