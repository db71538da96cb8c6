import DesktopClients
public import DBus
import LibraryFormats
import Logging
import PlayerCore
import Synchronization

/// `org.freedesktop.Application` on `io.linnet.Linnet` (the Desktop Entry spec's D-Bus
/// activation): how the desktop reaches the session's one linnet instead of starting another.
/// A card or launcher click calls `Activate`, "Open With" calls `Open`, a desktop action
/// `ActivateAction`; a second `linnet` process hands its files over the same way.
///
/// Owning ``busName`` is what makes a process the session's linnet, so the name is claimed
/// before any state is read. Calls that arrive before the player is running wait for it
/// (``serve(_:)``), in order; calls after ``close()`` are refused.
public final class DesktopApplication: Sendable {
    /// The application id: the desktop file's name and the well-known bus name.
    public static let busName = BusName(rawValue: DesktopIdentity.applicationID)!
    /// The object the spec derives from the bus name.
    public static let objectPath: ObjectPath = "/io/linnet/Linnet"
    /// The interface name.
    public static let interfaceName: InterfaceName = "org.freedesktop.Application"
    /// A `platform_data` key of `Open`: `true` appends the files instead of playing them now
    /// (`linnet --enqueue` sets it).
    public static let enqueueKey = "io.linnet.enqueue"
    /// The desktop actions (`Actions=` in the desktop file) and what each does.
    static let actions: [String: PlayerCommand] = ["play-pause": .playPause, "next": .next, "previous": .previous]
    /// The names `ActivateAction` knows.
    public static var actionNames: [String] { actions.keys.sorted() }

    /// What ``claim()`` found.
    public enum Claim: Sendable {
        /// This process is the session's linnet.
        case claimed
        /// Another process is; hand over to it.
        case taken
    }

    private enum Phase {
        /// Claimed, the player not yet running: work waits here in arrival order.
        case starting([@Sendable (PlayerController?) -> Void])
        case serving(PlayerController)
        case closed
    }

    private let connection: DBusConnection
    private let logger = Logger(label: "linnet.application")
    private let phase = Mutex<Phase>(.starting([]))

    /// The interface for the session's linnet on `connection`; nothing is on the bus until
    /// ``claim()``.
    public init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Exports the interface and asks for ``busName`` without queueing. On `.taken` nothing of
    /// this stays on the bus.
    public func claim() throws(DBusError) -> Claim {
        try connection.export([declaration()], at: Self.objectPath)
        switch try connection.requestName(Self.busName, flags: .doNotQueue) {
        case .primaryOwner, .alreadyOwner:
            return .claimed
        case .exists, .inQueue:
            connection.unexport(Self.objectPath)
            phase.withLock { $0 = .closed }
            return .taken
        }
    }

    /// Starts answering with `player`, first the calls that waited for it, in order. Runs on
    /// the player's loop thread so no call dispatched meanwhile overtakes them.
    public func serve(_ player: PlayerController) {
        player.owner.loop.sync {
            let waiting = phase.withLock { phase -> [@Sendable (PlayerController?) -> Void] in
                guard case .starting(let waiting) = phase else { return [] }
                phase = .serving(player)
                return waiting
            }
            for work in waiting { work(player) }
        }
    }

    /// Refuses further calls, from the moment linnet starts to quit. The name itself goes with
    /// the process, after the final save: a linnet started meanwhile is refused, and claims the
    /// name once it is free, by when the session is on disk.
    public func close() {
        let waiting = phase.withLock { phase -> [@Sendable (PlayerController?) -> Void] in
            defer { phase = .closed }
            if case .starting(let waiting) = phase { return waiting }
            return []
        }
        for work in waiting { work(nil) }
    }

    /// Runs `work` with the player: now when serving, later when starting, with nil when closed.
    private func withPlayer(_ work: @escaping @Sendable (PlayerController?) -> Void) {
        let player = phase.withLock { phase -> PlayerController?? in
            switch phase {
            case .starting(var waiting):
                waiting.append(work)
                phase = .starting(waiting)
                return .none
            case .serving(let player): return .some(player)
            case .closed: return .some(nil)
            }
        }
        if let player { work(player) }
    }

    /// The answer while linnet quits: a caller may claim the name once it is released.
    public static let quittingError: ErrorName = "io.linnet.Linnet.Error.Quitting"
    static let quitting = DBusError(quittingError, "linnet is quitting")
}

extension DesktopApplication {
    /// The caps on what any client may send, checked before decoding.
    enum Limits {
        /// URIs per `Open`: a selection in a file manager; folders and playlists expand.
        static let uris = DBusArgumentLimit(maxStringBytes: 8192, maxElements: 4096, maxValues: 4097)
        static let platformData = DBusArgumentLimit.dictionary(maxEntries: 32, maxStringBytes: 8192)
        static let actionName = DBusArgumentLimit.string(maxBytes: 255)
        static let actionParameter = DBusArgumentLimit(maxStringBytes: 1024, maxElements: 16, maxValues: 64)
    }

    private static let platformDataType = DBusType.dictionary(key: .string, value: .variant)

    func declaration() -> DBusInterface {
        let platformData = DBusArgument("platform_data", Self.platformDataType, limit: Limits.platformData)
        return DBusInterface(
            name: Self.interfaceName,
            methods: [
                DBusMethod("Activate", inputs: [platformData], handler: .deferred { [weak self] _, reply in
                    guard let self else { return reply.fail(Self.quitting) }
                    withPlayer { player in
                        guard player != nil else { return reply.fail(Self.quitting) }
                        // No window to raise: being asked is answered by being there.
                        self.logger.info("activated by the desktop")
                        reply.succeed([])
                    }
                }),
                DBusMethod("Open", inputs: [DBusArgument("uris", .array(.string), limit: Limits.uris), platformData],
                           handler: .deferred { [weak self] call, reply in
                    guard let self else { return reply.fail(Self.quitting) }
                    let request: OpenRequest
                    do { request = try OpenRequest(call) } catch { return reply.fail(error) }
                    withPlayer { player in
                        guard let player else { return reply.fail(Self.quitting) }
                        Task { await self.open(request, with: player, reply: reply) }
                    }
                }),
                DBusMethod("ActivateAction", inputs: [
                    DBusArgument("action_name", .string, limit: Limits.actionName),
                    DBusArgument("parameter", .array(.variant), limit: Limits.actionParameter), platformData,
                ], handler: .deferred { [weak self] call, reply in
                    guard let self else { return reply.fail(Self.quitting) }
                    let command: PlayerCommand
                    do { command = try Self.action(call) } catch { return reply.fail(error) }
                    withPlayer { player in
                        guard let player else { return reply.fail(Self.quitting) }
                        player.send(.command(command))
                        reply.succeed([])
                    }
                }),
            ])
    }

    /// The command for an `ActivateAction` call; actions take no parameter.
    private static func action(_ call: DBusMethodCall) throws(DBusError) -> PlayerCommand {
        let name = try call.argument(0, as: String.self)
        guard let command = actions[name] else {
            throw DBusError(.invalidArgs, "no action \"\(DBusError.excerpt(name))\" (known: \(actionNames.joined(separator: ", ")))")
        }
        guard case .array(_, let parameter)? = call.arguments.dropFirst().first, parameter.isEmpty else {
            throw DBusError(.invalidArgs, "the action \(name) takes no parameter")
        }
        return command
    }

    /// Resolves the URIs the way the command line does, then plays or appends what is playable.
    private func open(_ request: OpenRequest, with player: PlayerController, reply: DBusPendingReply) async {
        let resolution = await MediaResolver(scanner: player.scanner)
            .resolve(request.uris, workingDirectory: "/", home: player.configuration.home)
        // The resolver logs what it leaves out.
        guard !resolution.items.isEmpty else {
            let reason = resolution.rejections.first.map { DBusError.excerpt("\($0)", maxBytes: 300) } ?? "no URIs given"
            return reply.fail(DBusError(.invalidArgs, "nothing playable in what was given: \(reason)"))
        }
        let tracks = resolution.items.count == 1 ? "1 track" : "\(resolution.items.count) tracks"
        do {
            if request.enqueue {
                try player.append(resolution.items)
                logger.info("appended \(tracks) handed over by the desktop or another linnet")
            } else {
                player.playNow(resolution.items)
                logger.info("playing \(tracks) handed over by the desktop or another linnet")
            }
            reply.succeed([])
        } catch {
            reply.fail(error)
        }
    }
}

/// An `Open` call's arguments, checked.
struct OpenRequest: Sendable {
    let uris: [String]
    let enqueue: Bool

    init(_ call: DBusMethodCall) throws(DBusError) {
        uris = try call.argument(0, as: [String].self)
        // The spec speaks of URIs; a bare path would depend on a working directory linnet
        // does not share with the caller.
        if let path = uris.first(where: { FileURI.scheme(of: $0) == nil }) {
            throw DBusError(.invalidArgs, "\"\(DBusError.excerpt(path))\" is not a URI (give file:///… or http(s)://…)")
        }
        switch call.arguments.last?[DesktopApplication.enqueueKey] {
        case nil: enqueue = false
        case .boolean(let value)?: enqueue = value
        case let other?:
            throw DBusError(.invalidArgs, "\(DesktopApplication.enqueueKey) must be a boolean, not '\(other.type.signature)'")
        }
    }
}
