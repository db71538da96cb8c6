import DBus
import DesktopClients
import EventLoop
import LinnetCore

extension Daemon {
    /// How far ``Daemon/launch()`` got without suspending.
    enum Launch: Sendable {
        /// The MPRIS name is owned: serve.
        case appeared(Appearance)
        /// Another linnet holds `io.linnet.Linnet`: hand the inputs over to it, or claim the
        /// name if it goes away meanwhile.
        case heldByAnother(DBusConnection, InstanceRole)
        /// Ended before owning a name, with this exit status.
        case ended(Int32)
    }

    /// What a launch that owns its MPRIS name serves with.
    struct Appearance: Sendable {
        let connection: DBusConnection
        let role: InstanceRole
        /// `io.linnet.Linnet`, for the session's linnet.
        let application: DesktopApplication?
        /// The state folder this process holds for its life (``claimState(_:)``).
        let state: (directory: String, lock: StateDirectoryLock?, scratch: Bool)
        let configuration: PlayerConfiguration
        let desktop: DesktopServices
        let controller: PlayerController
        let lyrics: LyricsFollower
        let screen: ScreenActivityWatcher
        let clock: ClockService
        /// `io.linnet.Linnet1`, exported while it lives.
        let linnetInterface: LinnetExtension
        let ending: Ending.Box
        /// The termination signals' watch, while it lives.
        let signals: EventSource?
    }
}
