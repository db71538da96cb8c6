import DBus
import DesktopClients
import LinnetCore

extension Daemon {
    /// The synced-lyrics follower of `controller`, and the watcher of the session's screen saver
    /// (or logind) that ``watchScreen(_:for:)`` starts, so that no lyric timer runs while nobody
    /// sees it.
    func followLyrics(controller: PlayerController, connection: DBusConnection) -> (LyricsFollower, ScreenActivityWatcher) {
        let lyrics = LyricsFollower(player: controller)
        let settings = options.desktop.settings
        let screen = ScreenActivityWatcher(
            session: connection, systemBusAddress: settings.resolvedSystemBusAddress, timeout: settings.callTimeout, logger: logger)
        return (lyrics, screen)
    }

    /// Tells `lyrics` whether the screen is on. Started once the name is owned: the watcher's
    /// subscriptions are round trips to the bus, and until it hears otherwise the screen is on.
    func watchScreen(_ screen: ScreenActivityWatcher, for lyrics: LyricsFollower) {
        screen.start { [weak lyrics] on in lyrics?.setScreenOn(on) }
    }
}
