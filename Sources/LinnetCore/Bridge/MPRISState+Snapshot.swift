import ClockRules
import DBus
import LibraryFormats
import MPRIS
import PlayerCore
import Timekeeping

extension MPRISState {
    /// Shows `snapshot`: the transport, the current track (or the overlay that replaces it) and
    /// what a client may do next.
    mutating func show(_ snapshot: PlayerSnapshot) {
        let hasCurrent = snapshot.current != nil
        player.playbackStatus = snapshot.alarm != nil ? .playing : PlaybackStatus(snapshot.transport)
        player.metadata = Metadata(showing: snapshot)
        player.volume = snapshot.volume
        player.rate = snapshot.rate
        player.loopStatus = LoopStatus(snapshot.repeatMode)
        player.shuffle = snapshot.shuffled
        player.canGoNext = snapshot.canGoNext
        player.canGoPrevious = snapshot.canGoPrevious
        player.canPlay = hasCurrent
        player.canPause = hasCurrent
        player.canSeek = hasCurrent
        if snapshot.overlayOwnsTransport {
            // Next (snooze) and Stop/PlayPause must reach the player while an overlay owns them.
            player.canGoNext = true
            player.canPause = true
            player.canPlay = true
        }
        playlists.activePlaylist = snapshot.activePlaylist.flatMap { reference in
            ObjectPath(rawValue: reference.id).map { Playlist(id: $0, name: reference.name, icon: reference.icon) }
        }
    }
}

extension Metadata {
    /// What MPRIS shows as the current track: a ringing alarm, else the track with the Pomodoro's
    /// phase as its title.
    init(showing snapshot: PlayerSnapshot) {
        if let alarm = snapshot.alarm {
            self.init(trackID: TrackID("/org/linnet/alarm/\(alarm.id)"), title: alarm.label, artists: ["Linnet alarm"])
            url = URICredentials.removed(from: alarm.soundURI)
            return
        }
        self = snapshot.current.map(Metadata.init) ?? .empty
        if let title = snapshot.pomodoro?.title {
            if self == .empty {
                // Nothing queued: no track to name, but panels still show the phase.
                self = Metadata(trackID: .noTrack, title: title)
            } else {
                self.title = title
            }
        }
    }

    /// The MPRIS metadata map for a queue entry, typed as clients need it.
    init(_ item: TrackItem) {
        let (entry, facts) = (item.entry, item.facts)
        // Read once: each `facts.tags` copies every field out of the facts' box (GetTracksMetadata
        // builds this for every row it answers).
        let tags = facts.tags
        // The queue keeps a stream's credentials for the engine; nothing shown to clients has them.
        let shownURI = URICredentials.removed(from: entry.uri)
        self.init(trackID: TrackID.forEntry(entry.id))
        title = facts.title(for: shownURI)
        artists = facts.artists
        album = tags.album
        albumArtists = tags.albumArtists
        length = facts.length?.inMicroseconds
        trackNumber = tags.trackNumber.map { Int32(clamping: $0) }
        discNumber = tags.discNumber.map { Int32(clamping: $0) }
        genres = tags.genres
        composers = tags.composers
        comments = tags.comment.map { [$0] } ?? []
        contentCreated = tags.date
        // Plain words only: tags and sidecars may hold LRC, whose stamps are for Linnet1.
        lyrics = TrackLyrics.plainText(of: facts)
        // Tag values come from untrusted files: a NaN or huge BPM must not trap.
        beatsPerMinute = tags.beatsPerMinute.flatMap { $0.isFinite ? Int32(exactly: $0.rounded()) : nil }
        artURL = tags.artURI
        url = shownURI
        if let failure = facts.failure { extra["linnet:error"] = .string(URICredentials.scrubbed(failure)) }
    }
}

extension TrackID {
    /// The bus id of queue entry `id`: `/org/linnet/track/<id>`.
    static func forEntry(_ id: UInt64) -> TrackID {
        entries.id(id)
    }

    /// The queue entry id a bus track id names, if it is one of ours.
    var entryID: UInt64? {
        Self.entries.number(of: self)
    }

    /// Shares the parent path among all entry ids: a 100 000-track list keeps no path per track.
    private static let entries = TrackID.Numbering(parent: "/org/linnet/track")!
}

extension PlaybackStatus {
    init(_ transport: Transport) {
        switch transport {
        case .stopped: self = .stopped
        case .paused: self = .paused
        case .playing: self = .playing
        }
    }
}

extension LoopStatus {
    /// The MPRIS loop status for a queue repeat mode.
    init(_ mode: RepeatMode) {
        switch mode {
        case .none: self = .none
        case .track: self = .track
        case .playlist: self = .playlist
        }
    }
}

extension RepeatMode {
    /// The queue repeat mode for an MPRIS loop status.
    init(_ status: LoopStatus) {
        switch status {
        case .none: self = .none
        case .track: self = .track
        case .playlist: self = .playlist
        }
    }
}
