/// `org.mpris.MediaPlayer2.Player.PlaybackStatus`: "A playback state."
public enum PlaybackStatus: String, Sendable, Hashable, CaseIterable {
    /// "A track is currently playing."
    case playing = "Playing"
    /// "A track is currently paused."
    case paused = "Paused"
    /// "There is no track currently playing."
    case stopped = "Stopped"
}

/// `org.mpris.MediaPlayer2.Player.LoopStatus`: "A repeat / loop status."
public enum LoopStatus: String, Sendable, Hashable, CaseIterable {
    /// "The playback will stop when there are no more tracks to play."
    case none = "None"
    /// "The current track will start again from the beginning once it has finished playing."
    case track = "Track"
    /// "The playback loops through a list of tracks."
    case playlist = "Playlist"
}

/// MPRIS's `Time_In_Us`: "Time in microseconds."
public typealias Microseconds = Int64
