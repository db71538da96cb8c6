/// What the engine wants and what it last reported. Lives on the loop thread only.
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
    /// Whether the pipeline has prerolled in this generation, so seeks can go straight through.
    var prerolled = false
    /// A seek to apply once the pipeline has prerolled, and whether to report it.
    var pendingSeek: (microseconds: Int64, reported: Bool)?
    /// The next URI held back from playbin until a pending seek is done (see
    /// `GStreamerPipeline+Seeking`).
    var deferredNext: String?
    /// A URI reloaded only to seek in it: its STREAM_START is not a new track.
    var reloadedURI: String?
    /// Where the user's seek in flight goes, reported at its ASYNC_DONE.
    var userSeekTarget: Int64?
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
    /// A URI not audible whose error made the engine reload the current track. The rest of its
    /// error storm can still arrive in the new generation (seen under AddressSanitizer: a
    /// second error for the same queued file after the reload); it is the same failure.
    var failedAside: String?
    /// Gapless switches that failed in GStreamer rather than in the file (see
    /// `handleError`) since a track last started; kept across the reloads that retry them.
    var failedSwitches = 0
    /// Whether the last track reached end-of-stream (the pipeline then sits at its end).
    var ended = false
    var isShutDown = false

    /// Forgets everything tied to the previous pipeline generation.
    mutating func begin(generation: UInt64, uri: String?) {
        self.generation = generation
        loadedURI = uri
        currentURI = uri
        lastGroupID = nil
        streamsStarted = 0
        prerolled = false
        pendingSeek = nil
        deferredNext = nil
        reloadedURI = nil
        failedAside = nil
        userSeekTarget = nil
        appliedRate = 1.0
        bufferingPercent = nil
        reportedBufferingPercent = nil
        ended = false
        metadata = [:]
        publishedMetadata = [:]
        reportedDuration = [:]
        folderArt = [:]
    }
}
