import ArgumentParser
import DBus
import FoundationEssentials
import LinnetCore

/// `linnet action NAME`: a desktop action (`[Desktop Action …]` in the desktop file) for
/// launchers that run its `Exec=` line instead of calling `ActivateAction` themselves. The call
/// goes to the well-known name, so it starts linnet by D-Bus activation when none runs.
struct ActionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "action",
        abstract: "Run a desktop action on the session's linnet: \(DesktopApplication.actionNames.joined(separator: ", ")).")

    @Argument(help: "The action.") var name: String

    func validate() throws {
        guard DesktopApplication.actionNames.contains(name) else {
            throw ValidationError("no action \"\(name)\" (known: \(DesktopApplication.actionNames.joined(separator: ", ")))")
        }
    }

    func run() async throws {
        let connection: DBusConnection
        do {
            connection = try DBusConnection(bus: .session)
        } catch {
            LinnetClient.fail("cannot reach the session bus (\(error.message))")
        }
        let application = DBusProxy(
            connection: connection, destination: DesktopApplication.busName, path: DesktopApplication.objectPath,
            interface: DesktopApplication.interfaceName)
        do {
            _ = try await application.call(
                "ActivateAction", [.string(name), .array(.variant, []), .stringVariantDictionary([])], timeout: .seconds(30))
        } catch {
            switch error.name {
            case .serviceUnknown, .nameHasNoOwner:
                LinnetClient.fail("linnet is not running and cannot be started by D-Bus activation (is it installed?)")
            default:
                StandardError.write("linnet: \(error.message) (\(error.name.rawValue))\n")
                throw ExitCode(1)
            }
        }
    }
}
