/// What the player itself does toward the desktop (the services it uses are in
/// ``DesktopServices``): notifications per track and what happens when the audio output goes
/// away.
public struct PlayerDesktopBehaviour: Sendable, Equatable {
    /// What to do when the output linnet plays to disappears or leaves the headphones
    /// (`--on-route-lost`).
    public enum RouteLossAction: String, Sendable, CaseIterable {
        /// Pause, as a phone does when headphones are unplugged.
        case pause
        /// Keep playing wherever the sound server moved the stream.
        case keep
    }

    /// Post one notification per track (replaced by the next), with Previous/Next buttons.
    public var notifyTrackChanges = false
    /// What to do when the output goes away.
    public var onRouteLost: RouteLossAction = .pause

    /// Notifications off, pause when the output goes away.
    public init() {}
}
