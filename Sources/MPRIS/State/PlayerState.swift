/// `org.mpris.MediaPlayer2.Player` properties.
///
/// Position is kept as an anchor (a position at an instant) and extrapolated with the rate
/// while playing, so `Position` is always current without any timer.
///
/// The Double properties never hold −0.0 (it is stored as 0.0): equality of the published
/// values decides which PropertiesChanged are sent and whether a GetAll reply is reused, and
/// `==` cannot tell the two zeros apart while the message's bytes can.
public struct PlayerState: Sendable, Equatable {
    /// `PlaybackStatus`: "The current playback status."
    public var playbackStatus: PlaybackStatus = .stopped
    /// `LoopStatus`: "The current loop / repeat status."
    public var loopStatus: LoopStatus = .none
    /// `Rate`: "The current playback rate."
    public var rate = 1.0 { didSet { rate = rate.withoutNegativeZero } }
    /// `Shuffle`: "A value of false indicates that playback is progressing linearly through a
    /// playlist, while true means playback is progressing through a playlist in some other order."
    public var shuffle = false
    /// `Metadata`: "The metadata of the current element."
    public var metadata = Metadata.empty
    /// `Volume`: "The volume level." 1.0 is "a sensible maximum"; more is allowed.
    public var volume = 1.0 { didSet { volume = volume.withoutNegativeZero } }
    /// `MinimumRate`: "The minimum value which the Rate property can take."
    public var minimumRate = 1.0 { didSet { minimumRate = minimumRate.withoutNegativeZero } }
    /// `MaximumRate`: "The maximum value which the Rate property can take."
    public var maximumRate = 1.0 { didSet { maximumRate = maximumRate.withoutNegativeZero } }
    /// `CanGoNext`: "Whether the client can call the Next method on this interface and expect the current track to change."
    public var canGoNext = false
    /// `CanGoPrevious`: "Whether the client can call the Previous method on this interface and expect the current track to change."
    public var canGoPrevious = false
    /// `CanPlay`: "Whether playback can be started using Play or PlayPause."
    public var canPlay = false
    /// `CanPause`: "Whether playback can be paused using Pause or PlayPause."
    public var canPause = false
    /// `CanSeek`: "Whether the client can control the playback position using Seek and SetPosition."
    public var canSeek = false
    /// `CanControl`: "Whether the media player may be controlled over this interface." Never
    /// changes while the player is on the bus (the spec does not signal it).
    public var canControl = true

    private var anchorPosition: Microseconds = 0
    private var anchorInstant = ContinuousClock.now

    /// Stopped, nothing loaded, controllable.
    public init() {}

    /// `Position`: "The current track position in microseconds, between 0 and the
    /// 'mpris:length' metadata entry." Setting it anchors the position at this instant.
    public var position: Microseconds {
        get { position(at: .now) }
        set {
            anchorPosition = newValue
            anchorInstant = .now
        }
    }

    /// The position at `instant`, advancing with the rate while playing.
    public func position(at instant: ContinuousClock.Instant) -> Microseconds {
        var value = anchorPosition
        if playbackStatus == .playing {
            let elapsed = instant - anchorInstant
            let microseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
            // A client may seek to Int64.max in a track of unknown length: saturate, never trap.
            let advance = (microseconds * rate).clampedToMicroseconds
            let (sum, overflow) = value.addingReportingOverflow(advance)
            value = overflow ? (advance > 0 ? .max : .min) : sum
        }
        if let length = metadata.length, length > 0 { value = min(value, length) }
        return max(0, value)
    }

    /// Re-anchors at the current position so a change of status or rate applies from now.
    mutating func freezePosition() {
        let now = ContinuousClock.now
        anchorPosition = position(at: now)
        anchorInstant = now
    }

    /// Equality of the published values; the position anchor is not a published value.
    public static func == (lhs: PlayerState, rhs: PlayerState) -> Bool {
        lhs.playbackStatus == rhs.playbackStatus && lhs.loopStatus == rhs.loopStatus && lhs.rate == rhs.rate
            && lhs.shuffle == rhs.shuffle && lhs.metadata == rhs.metadata && lhs.volume == rhs.volume
            && lhs.minimumRate == rhs.minimumRate && lhs.maximumRate == rhs.maximumRate
            && lhs.canGoNext == rhs.canGoNext && lhs.canGoPrevious == rhs.canGoPrevious
            && lhs.canPlay == rhs.canPlay && lhs.canPause == rhs.canPause && lhs.canSeek == rhs.canSeek
            && lhs.canControl == rhs.canControl
    }
}

extension Double {
    /// This value, with −0.0 as 0.0.
    var withoutNegativeZero: Double { self == 0 ? 0 : self }

    /// This value as whole microseconds, saturating at Int64's range (NaN becomes 0).
    public var clampedToMicroseconds: Microseconds {
        guard !isNaN else { return 0 }
        if self >= 9.2e18 { return .max }
        if self <= -9.2e18 { return .min }
        return Microseconds(self)
    }
}
