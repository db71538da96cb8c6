import DBus
import DesktopClients
import LinnetCore

extension Daemon {
    /// The synced-lyrics follower of `controller`, told whether the screen is on by a watcher of
    /// the session's screen saver (or logind), so that no lyric timer runs while nobody sees it.
    func followLyrics(controller: PlayerController, connection: DBusConnection) -> (LyricsFollower, ScreenActivityWatcher) {
        let lyrics = LyricsFollower(player: controller)
        let settings = options.desktop.settings
        let screen = ScreenActivityWatcher(
            session: connection, systemBusAddress: settings.resolvedSystemBusAddress, timeout: settings.callTimeout, logger: logger)
        screen.start { [weak lyrics] on in lyrics?.setScreenOn(on) }
        return (lyrics, screen)
    }
}
