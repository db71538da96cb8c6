import DBus
import EventLoop
import Foundation
import MPRIS
import Testing
import TestSupport

/// One test's world: a private bus, the test player served as `org.mpris.MediaPlayer2.test`,
/// and a client on its own loop thread (as a separate process would be) that records every
/// signal the player sends.
final class MPRISFixture: @unchecked Sendable {
    let bus: PrivateBus
    let player = TestPlayer()
    let server: MPRISServer
    let clientLoop = EventLoop(name: "mpris.test.client")
    let client: DBusConnection
    let signals = Recorder<DBusSignal>()
    private var subscription: DBusSubscription?
    let busName: BusName

    init(name: String = "test", canControl: Bool = true) throws {
        bus = try PrivateBus()
        let connection = try DBusConnection(address: bus.address)
        server = player.makeServer(connection: connection, canControl: canControl)
        client = try DBusConnection(address: bus.address, loop: clientLoop)
        let signals = self.signals
        subscription = try client.subscribe(MatchRule(path: MPRISNames.objectPath)) { signals.record($0) }
        busName = try server.start(name: name)
    }

    deinit {
        subscription?.cancel()
        clientLoop.stop()
    }

    var environment: [String: String] { bus.environment }

    /// Runs playerctl against the test player and returns its trimmed output.
    @discardableResult
    func playerctl(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try ExternalTool.run("playerctl", ["--player=test"] + arguments, environment: environment)
        #expect(result.status == 0, "playerctl \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result.output
    }

    /// A proxy for one of the player's interfaces.
    func proxy(_ interface: InterfaceName) -> DBusProxy {
        DBusProxy(connection: client, destination: busName, path: MPRISNames.objectPath, interface: interface)
    }

    /// Waits until every signal the player sent before now has been recorded: the server answers
    /// the Ping only after the signals it emitted earlier, and the bus keeps their order.
    func settle() async throws {
        _ = try await client.call(destination: busName, path: MPRISNames.objectPath, interface: .peer, member: "Ping")
    }

    /// The PropertiesChanged signals recorded for `interface`, as (changed names, invalidated names).
    func propertiesChanged(_ interface: InterfaceName) -> [(changed: [String: DBusValue], invalidated: [String])] {
        signals.values.compactMap { signal in
            guard signal.member == "PropertiesChanged", signal.arguments.first == .string(interface.rawValue),
                case .dictionary(_, _, let entries) = signal.arguments[1],
                case .array(_, let invalidated) = signal.arguments[2]
            else { return nil }
            var changed: [String: DBusValue] = [:]
            for entry in entries {
                if case .string(let key) = entry.key { changed[key] = entry.value.unwrapped }
            }
            return (changed, invalidated.compactMap { if case .string(let name) = $0 { name } else { nil } })
        }
    }

    /// The recorded signals named `member`.
    func signals(named member: String) -> [DBusSignal] {
        signals.values.filter { $0.member.rawValue == member }
    }

    /// Forgets the signals recorded so far.
    func clearSignals() async throws {
        try await settle()
        signalBaseline = signals.values.count
    }

    private var signalBaseline = 0

    /// Signals recorded since the last ``clearSignals()``.
    var recentSignals: [DBusSignal] { Array(signals.values.dropFirst(signalBaseline)) }

    /// PropertiesChanged for `interface` since the last ``clearSignals()``.
    func recentChanges(_ interface: InterfaceName) -> [(changed: [String: DBusValue], invalidated: [String])] {
        let all = propertiesChanged(interface)
        let earlier = signals.values.prefix(signalBaseline).filter {
            $0.member == "PropertiesChanged" && $0.arguments.first == .string(interface.rawValue)
        }.count
        return Array(all.dropFirst(earlier))
    }
}
