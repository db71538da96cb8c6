import Foundation
import MPRIS
import Playback
import Synchronization

/// What the player remembers about its dealings with the desktop services.
struct DesktopLinkState {
    /// Whether focus and the "playing" inhibitor are held: while playing, and through a call.
    var holdsPlayback = false
    /// Paused because the focus coordinator asked linnet to give way; resume when it says so.
    var pausedForFocus = false
    /// The track the last notification was about, so each track is announced once.
    var notified: TrackAnnouncement?
    /// linnet is shutting down: whatever is published from now on must not take focus again.
    var disconnected = false
}

/// The parts of a track its notification shows; a change of any of them updates the bubble.
struct TrackAnnouncement: Equatable {
    var entryID: UInt64
    var title: String
    var body: String
    var art: String?
}

extension PlayerController {
    /// The key the player holds the suspend inhibitor under while playing.
    static let playingInhibitReason = "playing"
    /// The notification slot of the now-playing bubble.
    static let trackNotificationSlot = "track"

    /// Listens for the focus coordinator asking linnet to give way (when it can ask).
    func connectDesktop() {
        guard let focus = desktop.focus as? any AudioFocusInterrupting else { return }
        focus.onInterruption { [weak self] interruption in
            self?.focusInterrupted(interruption)
        }
    }

    /// Keeps focus, the inhibitor and the notification in step with what `state` shows.
    /// Called from `publish`, under the state lock: the services only queue work.
    func syncDesktop(_ state: State) {
        let playing = state.intent == .playing
        // A call is a pause, not an end: players linnet paused stay paused through it.
        let holds = playing || (state.pausedBySoundServer && state.intent == .paused)
        let announcement = playing && configuration.desktop.notifyTrackChanges ? announcement(state) : nil
        let (changed, announce) = desktopLink.withLock { link -> (Bool, Bool) in
            guard !link.disconnected else { return (false, false) }
            let changed = link.holdsPlayback != holds
            link.holdsPlayback = holds
            if playing || state.intent == .stopped { link.pausedForFocus = false }
            guard let announcement, announcement != link.notified else { return (changed, false) }
            link.notified = announcement
            return (changed, true)
        }
        if changed {
            if holds {
                desktop.focus.acquire(.music)
                desktop.inhibitor.hold(Self.playingInhibitReason, explanation: "Playing music")
            } else {
                desktop.focus.release(.music)
                desktop.inhibitor.release(Self.playingInhibitReason)
            }
        }
        if announce, let announcement { post(announcement, canGoBack: state.queue.canRetreat, canGoOn: state.queue.canAdvance) }
    }

    /// Gives back focus and the inhibitor and removes the bubble, when linnet shuts down.
    func disconnectDesktop() {
        let held = desktopLink.withLock { link in
            defer {
                link.holdsPlayback = false
                link.disconnected = true
            }
            return link.holdsPlayback
        }
        if held {
            desktop.focus.release(.music)
            desktop.inhibitor.release(Self.playingInhibitReason)
        }
        if configuration.desktop.notifyTrackChanges { desktop.notifier.withdraw(Self.trackNotificationSlot) }
    }

    private func announcement(_ state: State) -> TrackAnnouncement? {
        guard let entry = state.queue.current else { return nil }
        let metadata = currentMetadata(state)
        let byline = [metadata.artists.joined(separator: ", "), metadata.album ?? ""].filter { !$0.isEmpty }
        let art = metadata.artURL.flatMap { $0.hasPrefix("file://") ? $0 : nil }
        return TrackAnnouncement(
            entryID: entry.id, title: metadata.title ?? TrackInfo.fallbackTitle(for: entry.uri),
            body: byline.joined(separator: " — "), art: art)
    }

    private func post(_ announcement: TrackAnnouncement, canGoBack: Bool, canGoOn: Bool) {
        var actions: [NotificationAction] = []
        if canGoBack { actions.append(NotificationAction(key: "previous", label: "Previous")) }
        if canGoOn { actions.append(NotificationAction(key: "next", label: "Next")) }
        let notification = DesktopNotification(
            summary: announcement.title, body: announcement.body, icon: announcement.art, actions: actions,
            urgency: .low, category: "x-linnet.track")
        desktop.notifier.show(notification, in: Self.trackNotificationSlot) { [weak self] key in
            switch key {
            case "previous": self?.previous()
            case "next": self?.next()
            default: break
            }
        }
    }

    private func focusInterrupted(_ interruption: FocusInterruption) {
        guard !desktopLink.withLock({ $0.disconnected }) else { return }
        switch interruption {
        case .yield:
            guard state.withLock({ $0.intent == .playing }) else { return }
            desktopLink.withLock { $0.pausedForFocus = true }
            pause()
            logger.info("paused: another player started")
        case .resume:
            let resume = desktopLink.withLock { $0.pausedForFocus } && state.withLock { $0.intent == .paused }
            guard resume else { return }
            logger.info("resuming: the other player stopped")
            play()
        }
    }
}

extension PlayerController {
    /// The sound server plays linnet somewhere else. Like a phone, pause when the output the
    /// listener relied on is gone — the device vanished, or headphones gave way to speakers —
    /// unless told to keep playing; a move the user chose, or headphones plugged in, plays on.
    func outputRouteChanged(to route: OutputRoute, _ change: RouteChange, _ state: inout State) {
        switch change {
        case .initial:
            logger.debug("the audio output is \(route)")
            return
        case .unchanged:
            return
        case .sinkVanished:
            logger.info("the audio output went away; the sound server moved it to \(route)")
        case .privateListeningEnded:
            logger.info("the audio output left the headphones for \(route)")
        case .privateListeningStarted:
            logger.info("the audio output is now headphones (\(route))")
        case .moved:
            logger.info("the audio output was moved to \(route)")
        }
        guard change.lostRoute, configuration.desktop.onRouteLost == .pause, state.intent == .playing else { return }
        state.intent = .paused
        state.pausedBySoundServer = false
        engine.pause()
        logger.info("paused: the audio output went away")
        publish(state, position: engine.position())
    }
}
