/// What the engine wants and what it last reported, per pipeline generation. Lives on the loop
/// thread only. Where the pipeline is in its life, and the workarounds under way, are its
/// ``PipelineLifecycle``.
struct EngineSession {
    /// The state the user asked for; the pipeline follows it once it can.
    enum Target { case stopped, paused, playing }

    var target = Target.stopped
    var generation: UInt64 = 0
    /// The URI given to `load`, restarted by `play` after `stop`.
    var loadedURI: String?
    /// The URI currently audible (after gapless switches, no longer `loadedURI`).
    var currentURI: String?
    /// Group id of the last STREAM_START, to ignore repeats of the same stream.
    var lastGroupID: UInt32?
    var streamsStarted = 0
    /// Seeks waiting for the preroll, the next URI held back for them, the user's seek in flight.
    var seeking = SeekHandOff()
    /// The rate asked for, and the rate the pipeline runs at now (GStreamer resets it at a
    /// gapless switch and at every reset).
    var rate = 1.0
    var appliedRate = 1.0
    /// Percent while a network stream is refilling, nil otherwise.
    var bufferingPercent: Int?
    /// The last percentage reported, so repeated BUFFERING messages are sent once.
    var reportedBufferingPercent: Int?
    var reportedState: PlaybackState?
    /// The volume and mute last set or reported. Kept across generations: the sink, and the
    /// sound server's stream volume with it, outlive a reset.
    var level = VolumeLevel()
    /// The volume the app asked for; ``level`` holds what is applied, which a headphone volume
    /// cap may hold lower.
    var requestedVolume = 1.0
    /// Where the stream plays, as the sound server last said (kept across generations until
    /// the next stream's route arrives, so the cap holds meanwhile), and whether a pulsesink was
    /// set up, so a route is to be expected.
    var route: OutputRoute?
    var expectsRoute = false
    /// Tags accumulated per URI in this generation, and what was last published for each.
    var metadata: [String: TrackMetadata] = [:]
    var publishedMetadata: [String: TrackMetadata] = [:]
    var folderArt: [String: String?] = [:]
    var reportedDuration: [String: Int64] = [:]

    /// Forgets everything tied to the previous pipeline generation.
    mutating func begin(generation: UInt64, uri: String?) {
        self.generation = generation
        loadedURI = uri
        currentURI = uri
        lastGroupID = nil
        streamsStarted = 0
        seeking = SeekHandOff()
        appliedRate = 1.0
        bufferingPercent = nil
        reportedBufferingPercent = nil
        metadata = [:]
        publishedMetadata = [:]
        reportedDuration = [:]
        folderArt = [:]
    }
}
