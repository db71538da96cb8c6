/// Where the engine sends audio.
public enum AudioOutput: Sendable, Hashable {
    /// The system's audio output (GStreamer's `autoaudiosink`), tagged as music for the sound
    /// server. Falls back to a null sink, with a warning event, when no output works.
    case system
    /// A sink or bin in `gst-launch-1.0` syntax, e.g. `pulsesink device=…` or
    /// `audioconvert ! wavenc ! filesink location=out.wav`. Falls back to ``system`` with a
    /// warning event when it cannot be built or opened.
    case description(String)
    /// Discards audio in real time (a synchronised `fakesink`).
    case null
}

/// How the player introduces itself to the sound server (PulseAudio/PipeWire stream properties).
public struct ApplicationIdentity: Sendable, Hashable {
    /// Human-readable name, e.g. "Linnet".
    public var name: String
    /// Reverse-DNS or desktop-file id, e.g. "org.example.Linnet".
    public var id: String
    /// Icon name from the icon theme.
    public var iconName: String

    /// An identity with the given name, id and icon.
    public init(name: String, id: String, iconName: String) {
        self.name = name
        self.id = id
        self.iconName = iconName
    }

    /// Linnet's own identity.
    public static let linnet = ApplicationIdentity(
        name: "Linnet", id: "linnet", iconName: "audio-x-generic")
}

/// What kind of sound the engine plays, as the sound server's `media.role` stream property
/// says it. Role-based policies act on it: PulseAudio's module-role-cork and PipeWire's policy
/// cork `music` during calls, and route or duck `event` sounds (alarms, bells) differently.
public struct MediaRole: RawRepresentable, Sendable, Hashable {
    /// The property's value, e.g. `music`.
    public var rawValue: String

    /// A role with the given `media.role` value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Music: corked during calls.
    public static let music = MediaRole(rawValue: "music")
    /// Event sounds such as alarms, bells and timers (PulseAudio's role for "alarm" sounds).
    public static let event = MediaRole(rawValue: "event")
    /// A call: starting one corks music streams.
    public static let phone = MediaRole(rawValue: "phone")
}
