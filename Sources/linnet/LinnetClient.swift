import ClockRules
import ArgumentParser
import DBus
import FoundationEssentials
import Glibc
import LinnetCore
import MPRIS

/// `--name`, shared by every client command.
struct InstanceOptions: ParsableArguments {
    @Option(help: "Which linnet to talk to: the bus name suffix it runs under.")
    var name = "linnet"
}

/// A thin client of a running linnet's `io.linnet.Linnet1` interface on the session bus.
struct LinnetClient {
    let connection: DBusConnection
    let destination: BusName

    /// Connects, or prints why not and exits 69.
    init(_ options: InstanceOptions) throws {
        do {
            connection = try DBusConnection(bus: .session)
        } catch {
            Self.fail("cannot reach the session bus (\(error.message))")
        }
        guard let name = BusName(rawValue: "org.mpris.MediaPlayer2." + options.name) else {
            throw ValidationError("\"\(options.name)\" does not make a valid bus name")
        }
        destination = name
    }

    /// Calls `member` on io.linnet.Linnet1; a missing linnet or a refusal ends the command with
    /// a clear message and a non-zero status: `refusalStatus` for InvalidArgs (64, bad usage,
    /// unless the call can only be refused for one reason that deserves its own).
    func call(_ member: MemberName, _ arguments: [DBusValue] = [], refusalStatus: Int32 = 64) async throws -> [DBusValue] {
        try await call(member, arguments, interface: LinnetExtension.interfaceName, refusalStatus: refusalStatus)
    }

    func call(
        _ member: MemberName, _ arguments: [DBusValue], interface: InterfaceName, refusalStatus: Int32 = 64
    ) async throws -> [DBusValue] {
        let proxy = DBusProxy(connection: connection, destination: destination, path: MPRISNames.objectPath, interface: interface)
        do {
            return try await proxy.call(member, arguments, timeout: .seconds(10))
        } catch {
            throw explain(error, refusalStatus: refusalStatus)
        }
    }

    /// An MPRIS Player property.
    func playerProperty(_ name: MemberName) async throws -> DBusValue {
        let proxy = DBusProxy(connection: connection, destination: destination, path: MPRISNames.objectPath, interface: MPRISNames.player)
        do {
            return try await proxy.property(name)
        } catch {
            throw explain(error, refusalStatus: 64)
        }
    }

    private func explain(_ error: DBusError, refusalStatus: Int32) -> any Error {
        switch error.name {
        case .serviceUnknown, .nameHasNoOwner:
            Self.fail("linnet is not running (nothing owns \(destination.rawValue) on the session bus); start it with `linnet`")
        case .invalidArgs:
            StandardError.write("linnet: \(error.message)\n")
            return ExitCode(refusalStatus)
        default:
            StandardError.write("linnet: \(error.message) (\(error.name.rawValue))\n")
            return ExitCode(1)
        }
    }

    static func fail(_ message: String) -> Never {
        StandardError.write("linnet: \(message)\n")
        Glibc.exit(69)
    }
}

/// Parses durations for options (`25m`, `90s`, `1h30m`) into the seconds D-Bus carries.
func parseDuration(_ text: String, allowZero: Bool = false) throws -> TimeInterval {
    do {
        return try ClockDuration.parse(text, allowZero: allowZero).inSeconds
    } catch {
        throw ValidationError(error.description)
    }
}

/// A path given on the command line, made absolute against the client's working directory (the
/// daemon runs elsewhere); URIs and `~` paths go as they are.
func absolutePath(_ path: String) -> String {
    if path.contains("://") || path.hasPrefix("/") || path.hasPrefix("~") { return path }
    return FileManager.default.currentDirectoryPath + "/" + path
}
