/// Everything observable about a ``PlaybackEngine``, delivered in order through its
/// ``PlaybackEngine/events`` stream. Modelled on GstPlay's messages: commands return at once and
/// their outcome arrives here.
public enum PlaybackEvent: Sendable, Hashable {
    /// The engine's state changed. Reported only when it differs from the last one reported.
    case stateChanged(PlaybackState)
    /// A network stream is filling its buffer; playback pauses below 100 and resumes at 100.
    case buffering(percent: Int)
    /// The length of `uri` became known or changed, in microseconds.
    case durationChanged(uri: String, microseconds: Int64)
    /// The typed tags of `uri` changed. Sent once per distinct value: repeated TAG messages that
    /// add nothing new are swallowed.
    case metadataChanged(uri: String, TrackMetadata)
    /// `uri` began playing: at load, or at the real audible boundary of a gapless switch.
    case trackStarted(uri: String)
    /// `uri` is about to finish; `next` is the URI handed to GStreamer for a gapless switch, or nil
    /// when none was queued with ``PlaybackEngine/setNext(_:)`` (playback will then end).
    case aboutToFinish(uri: String, next: String?)
    /// The last queued track played to its end.
    case endOfStream
    /// Playback of a URI failed. Reported once per failure (GStreamer's follow-up errors are
    /// swallowed). The engine then stops and is ready for ``PlaybackEngine/load(_:)`` — unless
    /// the failed URI was not the one playing (``PlaybackFailure/currentTrackContinues``): then
    /// the current track plays on to its end with nothing queued after it, and another next
    /// URI may be queued with ``PlaybackEngine/setNext(_:)``.
    case error(PlaybackFailure)
    /// GStreamer reported a problem that does not stop playback, or the engine had to fall back
    /// (for example to a null audio output).
    case warning(uri: String?, message: String)
    /// A seek requested with ``PlaybackEngine/seek(toMicroseconds:)`` finished; playback resumes
    /// from `microseconds`.
    case seekCompleted(microseconds: Int64)
    /// The sound server asks the player to change state, e.g. to pause music during a phone call
    /// and resume afterwards (GStreamer's REQUEST_STATE). The engine does not act on it itself.
    case soundServerRequest(SoundServerRequest)
    /// The output stream's volume or mute changed outside the engine: the user moved linnet's
    /// slider in the sound server's mixer (pavucontrol, GNOME Settings, `pactl`), or the server
    /// restored a remembered level when the stream started. `volume` is linear, as in
    /// ``PlaybackEngine/setVolume(_:)``, and keeps its value while `muted`. Reported once per
    /// change; the engine's own ``PlaybackEngine/setVolume(_:)`` and
    /// ``PlaybackEngine/setMuted(_:)`` are not echoed, nor is the server's rounding of them. Only
    /// outputs with a stream volume (PulseAudio, PipeWire) report it, and only as they write
    /// audio: a change made while paused arrives when playback resumes.
    case volumeChanged(volume: Double, muted: Bool)
    /// The sound server plays the output stream somewhere else: `route` is where it plays now,
    /// and `change` says how it got there — the first route known, a move by the user, the old
    /// sink vanishing, or headphones coming out (the sink's active port changing away from
    /// them). Playback goes on there; the player decides whether to pause (see
    /// ``RouteChange/lostRoute``). Reported for PulseAudio outputs (pulsesink, also under
    /// autoaudiosink) when the sound server can be asked; otherwise a
    /// ``warning(uri:message:)`` says once that it cannot.
    case outputRouteChanged(OutputRoute, RouteChange)
}

/// The engine's state as a player shows it.
public enum PlaybackState: Sendable, Hashable {
    /// Nothing is loaded, or playback was stopped or failed.
    case stopped
    /// Waiting for data before playing can continue (network streams).
    case buffering
    /// Loaded and paused.
    case paused
    /// Playing.
    case playing
}

/// A failed URI and what GStreamer said about it.
public struct PlaybackFailure: Sendable, Hashable, Error {
    /// The URI that failed, when it is known.
    public var uri: String?
    /// GStreamer's human-readable message.
    public var message: String
    /// GStreamer's debug detail (element path, source location), if any.
    public var debug: String?
    /// Whether the engine plays the current track on: the failed URI was not the one playing
    /// (the queued next track, or a decoder that no longer feeds the output). False means the
    /// engine stopped.
    public var currentTrackContinues: Bool

    /// Describes a failure of `uri`.
    public init(uri: String?, message: String, debug: String? = nil, currentTrackContinues: Bool = false) {
        self.uri = uri
        self.message = message
        self.debug = debug
        self.currentTrackContinues = currentTrackContinues
    }
}

/// What the sound server asks for in a ``PlaybackEvent/soundServerRequest(_:)``.
public enum SoundServerRequest: Sendable, Hashable {
    /// Pause, e.g. because a phone call started (the music stream was corked).
    case pause
    /// Resume, e.g. because the phone call ended.
    case resume
    /// Stop playing altogether.
    case stop
}
