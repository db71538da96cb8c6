/// What the user asked the transport to do; the engine's reports confirm it. This, not the
/// engine's transient states (prerolling on the way to playing), is what clients are shown.
public enum Transport: String, Sendable, Hashable, CaseIterable {
    /// Nothing plays; Play starts the current entry from its start (or a remembered seek).
    case stopped
    /// The current entry is loaded and held.
    case paused
    /// The current entry plays.
    case playing
}
