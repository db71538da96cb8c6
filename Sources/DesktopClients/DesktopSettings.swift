import FoundationEssentials
import Glibc

/// How the desktop services behave: the focus policy toward other players, how far to duck
/// them, how long to wait before giving back focus, notifications, the inhibitor's release delay
/// and where the system bus is. The daemon fills it from the command line.
public struct DesktopSettings: Sendable, Equatable {
    /// How music treats other MPRIS players (`--focus`).
    public var focusPolicy: FocusPolicy = .mix
    /// Ducked players play at this fraction of their own level (`--duck-level`), 0…1.
    public var duckLevel: Double = 0.3
    /// After giving way to another player under `pause-others`, linnet resumes if that player
    /// stops within this time (`--resume-within`); zero never resumes.
    public var resumeWindow: Duration = .seconds(30)
    /// Whether track notifications are on (`--notify`), for whoever builds the player's
    /// ``PlayerDesktopBehaviour`` from these settings.
    public var notifyTrackChanges = false
    /// How long the suspend inhibitor outlives the last reason to hold it.
    public var inhibitorReleaseDelay: Duration = .seconds(5)
    /// The system bus for logind; nil uses `DBUS_SYSTEM_BUS_ADDRESS` or the standard socket.
    public var systemBusAddress: String?
    /// The longest linnet waits for any other program on the bus (players, portal, logind,
    /// notification server) before carrying on without it.
    public var callTimeout: Duration = .seconds(2)
    /// Well-known names starting with this are linnet itself and never touched.
    public var ownNamePrefix = "org.mpris.MediaPlayer2.linnet"

    /// The defaults: mix, duck to 30 %, resume within 30 s, no notifications, 5 s release delay.
    public init() {}

    /// The system bus address to use: the setting, else `DBUS_SYSTEM_BUS_ADDRESS`, else the
    /// standard socket.
    public var resolvedSystemBusAddress: String {
        if let systemBusAddress { return systemBusAddress }
        // getenv, not ProcessInfo's environment: that copies every variable, at each start.
        if let fromEnvironment = getenv("DBUS_SYSTEM_BUS_ADDRESS").map({ String(cString: $0) }), !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "unix:path=/run/dbus/system_bus_socket"
    }
}
