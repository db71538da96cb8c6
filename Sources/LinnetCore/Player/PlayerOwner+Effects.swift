import DesktopClients
import LibraryFormats
import Logging
import MPRIS
import Playback
import PlayerCore
import Timekeeping

/// Carrying out the machine's effects.
extension PlayerOwner {
    /// The key the "playing" suspend inhibitor is held under.
    static let playingInhibitReason = "playing"
    /// The notification slot of the now-playing bubble.
    static let trackNotificationSlot = "track"

    /// Carries out `effects` in order; returns the refusal among them, if any.
    func perform(_ effects: [PlayerEffect]) -> PlayerRefusal? {
        var refusal: PlayerRefusal?
        var saveDue = false
        for effect in effects {
            switch effect {
            case .engine(let command):
                apply(command)
            case .publish(let snapshot, let position, let trackList):
                if trackList != nil { replacedTrackList = true }
                player?.publish(snapshot, position: resolve(position), trackList: trackList)
            case .tracksAdded(let items, let after, let index):
                player?.announceAdded(items, after: after, at: index)
            case .trackRemoved(let id, let index):
                player?.server.removeTrack(TrackID.forEntry(id), at: index)
            case .trackChanged(let item):
                player?.server.trackMetadataChanged(Metadata(item))
            case .seeked(let position):
                player?.server.seeked(to: position.inMicroseconds)
            case .scan(let entries):
                player?.scan(entries)
            case .holdPlayback(let hold):
                holdPlayback(hold)
            case .announce(let announcement):
                announce(announcement)
            case .withdrawAnnouncement:
                desktop.notifier.withdraw(Self.trackNotificationSlot)
            case .clock(let request):
                clockHandler?(request)
            case .saveSoon:
                saveDue = true
            case .log(let level, let message):
                logger.log(level: Logger.Level(level), "\(message)")
            case .refused(let reason):
                refusal = reason
            }
        }
        if saveDue { scheduleSave() }
        if effects.contains(where: \.touchesPlaybackClock) { playbackObserver?(effects) }
        return refusal
    }

    private func apply(_ command: EngineCommand) {
        switch command {
        case .load(let uri): engine.load(uri)
        case .setNext(let uri): engine.setNext(uri)
        case .play: engine.play()
        case .pause: engine.pause()
        case .stop: engine.stop()
        case .seek(let position): engine.seek(toMicroseconds: position.inMicroseconds)
        case .setRate(let rate): engine.setRate(rate)
        case .setVolume(let level): engine.setVolume(level)
        case .setMuted(let muted): engine.setMuted(muted)
        }
    }

    private func resolve(_ position: PositionUpdate) -> Microseconds? {
        switch position {
        case .unchanged: nil
        case .at(let position): position.inMicroseconds
        case .engineNow: engine.position()
        }
    }

    private func holdPlayback(_ hold: Bool) {
        if hold {
            desktop.focus.acquire(.music)
            desktop.inhibitor.hold(Self.playingInhibitReason, explanation: "Playing music")
        } else {
            desktop.focus.release(.music)
            desktop.inhibitor.release(Self.playingInhibitReason)
        }
    }

    private func announce(_ announcement: TrackAnnouncement) {
        var actions: [NotificationAction] = []
        if announcement.canGoBack { actions.append(NotificationAction(key: "previous", label: "Previous")) }
        if announcement.canGoOn { actions.append(NotificationAction(key: "next", label: "Next")) }
        let notification = DesktopNotification(
            summary: URICredentials.scrubbed(announcement.title), body: URICredentials.scrubbed(announcement.body), icon: announcement.art, actions: actions,
            urgency: .low, category: "x-linnet.track")
        desktop.notifier.show(notification, in: Self.trackNotificationSlot) { [weak player] key in
            switch key {
            case "previous": player?.send(.command(.previous))
            case "next": player?.send(.command(.next))
            default: break
            }
        }
    }

    /// Saves once changes settle, and periodically while playing (so a crash loses little
    /// position). The snapshot is taken on the loop thread when the save is due.
    private func scheduleSave() {
        let provider: @Sendable () -> SavedSession? = { [weak player] in player?.savedSessionOnLoop() }
        saver.scheduleSave(provider)
        saver.setPlaying(machine.transport == .playing, snapshot: provider)
    }
}

extension Logger.Level {
    init(_ level: LogLevel) {
        switch level {
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        }
    }
}
