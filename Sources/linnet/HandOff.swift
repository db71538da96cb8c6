import DBus
import FoundationEssentials
import LibraryFormats
import LinnetCore
import MPRIS

/// What `linnet [FILES]` does when the session's linnet already runs: hands the files over
/// (`org.freedesktop.Application.Open`: played now, or appended with `--enqueue`) or, with none,
/// activates it and says what it plays. Calls go to the owner's unique name, never to the
/// well-known one, so a linnet that has just gone is noticed instead of being started again by
/// D-Bus activation.
struct HandOff {
    enum Outcome {
        /// Done: exit with this status.
        case finished(Int32)
        /// The linnet that held the name has gone (or is quitting): claim the name again.
        case ownerGone
    }

    let connection: DBusConnection
    let inputs: [String]
    let enqueue: Bool

    func run() async -> Outcome {
        let owner: BusName
        do {
            owner = try await connection.nameOwner(DesktopApplication.busName)
        } catch {
            return .ownerGone
        }
        let application = DBusProxy(
            connection: connection, destination: owner, path: DesktopApplication.objectPath,
            interface: DesktopApplication.interfaceName)
        do {
            if inputs.isEmpty {
                _ = try await application.call("Activate", [.stringVariantDictionary([])])
                print(try await describePlayer(owner))
            } else {
                let platformData: [(String, DBusValue)] = enqueue ? [(DesktopApplication.enqueueKey, .boolean(true))] : []
                // Resolving a folder reads its tags first; a large one takes a while.
                _ = try await application.call(
                    "Open", [.array(.string, inputs.map { .string(Self.uri(for: $0)) }), .stringVariantDictionary(platformData)],
                    timeout: .seconds(300))
                // What was handed over, not what plays: the running linnet resolves the items
                // and logs any it leaves out (it refused the call if none was playable).
                let items = inputs.count == 1 ? "1 item" : "\(inputs.count) items"
                print(enqueue ? "linnet already runs: handed it \(items) to append" : "linnet already runs: handed it \(items) to play now")
            }
            return .finished(0)
        } catch {
            switch error.name {
            case .serviceUnknown, .nameHasNoOwner, .noReply, .unknownObject, .unknownMethod, DesktopApplication.quittingError:
                return .ownerGone
            case .invalidArgs:
                StandardError.write("linnet: \(error.message)\n")
                return .finished(66)
            default:
                StandardError.write("linnet: the running linnet refused: \(error.message) (\(error.name.rawValue))\n")
                return .finished(1)
            }
        }
    }

    /// `Playing — Title — Artist`, read from the owner's MPRIS object.
    private func describePlayer(_ owner: BusName) async throws(DBusError) -> String {
        let player = DBusProxy(connection: connection, destination: owner, path: MPRISNames.objectPath, interface: MPRISNames.player)
        let status = try await player.property("PlaybackStatus")
        let metadata = try await player.property("Metadata")
        var parts = ["linnet already runs: " + (status.stringValue ?? "Stopped")]
        if let title = metadata["xesam:title"]?.stringValue { parts.append(title) }
        if case .array(_, let artists)? = metadata["xesam:artist"] {
            let names = artists.compactMap(\.stringValue)
            if !names.isEmpty { parts.append(names.joined(separator: ", ")) }
        }
        return parts.joined(separator: " — ")
    }

    /// A URI for what was typed: URIs as they are, paths made absolute against this process's
    /// working directory (the running linnet has its own).
    static func uri(for input: String) -> String {
        if FileURI.scheme(of: input) != nil { return input }
        return FileURI.uri(forPath: FileURI.absolute(input, relativeTo: FileManager.default.currentDirectoryPath))
    }
}

extension DBusValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
