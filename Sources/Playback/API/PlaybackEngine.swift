/// An audio engine that plays URIs and reports everything it does as ``PlaybackEvent``s.
///
/// Every command returns at once; its effect is reported through ``events``. Position and
/// duration are queried on demand rather than pushed on a timer, so an idle or paused engine
/// causes no wake-ups. Times are microseconds, as MPRIS counts them.
public protocol PlaybackEngine: AnyObject, Sendable {
    /// The one ordered stream of everything the engine reports. It has a single consumer; fan it
    /// out in Swift if several parts of the program need it.
    var events: AsyncStream<PlaybackEvent> { get }

    /// Replaces whatever is playing with `uri` (e.g. `file:///…` or `https://…`) and forgets any
    /// queued next URI. The engine keeps its intent: if it was playing it plays `uri`, if paused
    /// it prerolls `uri` paused, if stopped it stays stopped until ``play()``.
    func load(_ uri: String)
    /// Queues `uri` to follow the current track without a gap, or clears the queue with nil. Set
    /// it as soon as the next track is known: it is handed to GStreamer when the current track is
    /// about to finish.
    func setNext(_ uri: String?)
    /// Starts or resumes playback of the loaded URI.
    func play()
    /// Pauses playback.
    func pause()
    /// Stops playback and releases the audio output; ``play()`` restarts the loaded URI.
    func stop()
    /// Seeks accurately to `microseconds` from the start of the current track.
    func seek(toMicroseconds microseconds: Int64)
    /// Sets the playback rate, clamped to 0.25…4.0; pitch is kept when the platform can.
    func setRate(_ rate: Double)
    /// Sets the linear volume: 0 is silent, 1 is unchanged, above 1 amplifies (as MPRIS means it).
    func setVolume(_ volume: Double)
    /// Mutes or unmutes without changing the volume.
    func setMuted(_ muted: Bool)
    /// The position in the current track in microseconds, or nil when none is known yet.
    func position() -> Int64?
    /// The length of the current track in microseconds, or nil when none is known yet.
    func duration() -> Int64?
    /// Stops playback for good, releases GStreamer resources and finishes ``events``.
    func shutdown()
}
