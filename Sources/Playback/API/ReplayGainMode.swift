/// Whether the engine levels loudness with the ReplayGain tags of the files it plays.
public enum ReplayGainMode: Sendable, Hashable {
    /// Play files as they are.
    case off
    /// Level every track to the same loudness (track gain).
    case track
    /// Keep loudness differences within an album (album gain, track gain when missing).
    case album
}
