import FoundationEssentials
import Glibc

/// The volume and mute the engine last set or reported, and the rule that decides whether a
/// value read back from playbin is news. Lives on the loop thread only.
///
/// A sound server stores stream volumes in integer steps (PulseAudio: 65536 per 100 % on a cubic
/// scale), so a volume the engine sets comes back slightly rounded. Treating that as a change
/// would echo every `setVolume` back to the app, and an app that then set the echoed value
/// would ping-pong. Values within ``tolerance`` of the known one are the same level.
struct VolumeLevel: Equatable {
    var volume = 1.0
    var muted = false

    /// In cube-root units, the scale mixers show as percent: 0.05 % of a mixer's slider, about
    /// 33 PulseAudio steps (rounding is at most half a step), yet well below the 1 % a mixer
    /// moves by.
    static let tolerance = 0.0005

    /// Takes a level read back from playbin. Returns the level to report when it differs from the
    /// known one; a volume within the tolerance keeps the known value, so a mute toggle reports
    /// the volume exactly as it was set.
    mutating func observe(volume: Double, muted: Bool) -> VolumeLevel? {
        let volumeMoved = abs(cbrt(volume) - cbrt(self.volume)) > Self.tolerance
        guard volumeMoved || muted != self.muted else { return nil }
        if volumeMoved { self.volume = volume }
        self.muted = muted
        return self
    }
}
