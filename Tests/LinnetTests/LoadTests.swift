import DBus
import EventLoop
import Foundation
import MPRIS
import Synchronization
import Testing
import TestSupport

/// Fifty clients, each on its own connection and event loop, call linnet and listen to it at
/// once: every call gets its own reply, every client sees one writer's volume changes in the
/// order they were made, and the latency under that load is printed (not asserted).
///
/// `LINNET_LOAD_SECONDS` sets how long the clients run (default 30).
@Suite struct LoadTests {
    private static let clientCount = 50
    private static let seconds = ProcessInfo.processInfo.environment["LINNET_LOAD_SECONDS"].flatMap(Double.init) ?? 30

    /// One client: its connection, loop, and what it saw.
    private final class Client: Sendable {
        let loop: EventLoop
        let connection: DBusConnection
        let seen = Seen()
        let subscription: DBusSubscription

        /// What the client's signal handler recorded.
        final class Seen: Sendable {
            /// Volume values in the order PropertiesChanged brought them.
            let volumes = Mutex<[Double]>([])
            let seekedCount = Mutex(0)
        }

        var volumes: [Double] { seen.volumes.withLock { $0 } }
        var seekedCount: Int { seen.seekedCount.withLock { $0 } }

        init(index: Int, address: String) throws {
            loop = EventLoop(name: "linnet.load.\(index)")
            connection = try DBusConnection(address: address, loop: loop)
            let seen = seen
            subscription = try connection.subscribe(MatchRule(path: MPRISNames.objectPath)) { signal in
                switch signal.member.rawValue {
                case "PropertiesChanged":
                    if signal.arguments.count > 1, case .double(let volume)? = signal.arguments[1]["Volume"] {
                        seen.volumes.withLock { $0.append(volume) }
                    }
                case "Seeked":
                    seen.seekedCount.withLock { $0 += 1 }
                default:
                    break
                }
            }
        }

        func proxy(_ interface: InterfaceName) -> DBusProxy {
            DBusProxy(connection: connection, destination: LinnetWorld.playerName, path: MPRISNames.objectPath, interface: interface)
        }

        func close() {
            subscription.cancel()
            connection.close()
            loop.stop()
        }
    }

    /// What the clients share: their tally and the writer's last volume.
    private final class Shared: Sendable {
        let tally = Mutex(Tally())
        let lastVolume = Mutex(0.0)
    }

    /// What all clients measured.
    private struct Tally: Sendable {
        var latencies: [Duration] = []
        var calls = 0
        var mismatched: [String] = []
        var errors: [String: Int] = [:]
    }

    @Test(.timeLimit(.minutes(5))) func fiftyClientsGetTheirOwnRepliesAndOrderedSignals() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("load.ogg", title: "Under Load", seconds: 20)
        try await world.start(["--no-resume", "--loop", "track", track])
        let clients = try (0..<Self.clientCount).map { try Client(index: $0, address: world.bus.address) }
        defer { clients.forEach { $0.close() } }
        // Subscriptions are in place once each client has made one round trip after them.
        for client in clients { _ = try await client.proxy(MPRISNames.root).property("Identity") }

        let shared = Shared()
        let deadline = ContinuousClock.now + .seconds(Self.seconds)
        print("load test: \(Self.clientCount) clients for \(Self.seconds) s")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    var local = Tally()
                    var step = 0
                    while ContinuousClock.now < deadline {
                        step += 1
                        let started = ContinuousClock.now
                        do {
                            if let problem = try await Self.oneCall(client, index: index, step: step, shared: shared) {
                                local.mismatched.append(problem)
                            }
                        } catch {
                            local.errors[(error as? DBusError)?.name.rawValue ?? "\(error)", default: 0] += 1
                        }
                        local.latencies.append(ContinuousClock.now - started)
                        local.calls += 1
                    }
                    let finished = local
                    shared.tally.withLock {
                        $0.calls += finished.calls
                        $0.latencies += finished.latencies
                        $0.mismatched += finished.mismatched
                        $0.errors.merge(finished.errors, uniquingKeysWith: +)
                    }
                }
            }
            try await group.waitForAll()
        }

        // Every client ends up seeing the writer's last volume, having seen the values rise.
        let final = shared.lastVolume.withLock { $0 }
        try await waitUntil(.seconds(20), "every client saw the last volume") {
            clients.allSatisfy { $0.volumes.last == final }
        }
        var outOfOrder: [Int] = []
        for (index, client) in clients.enumerated() {
            let seen = client.volumes
            if zip(seen, seen.dropFirst()).contains(where: { $0 >= $1 }) { outOfOrder.append(index) }
        }
        let result = shared.tally.withLock { $0 }
        let sorted = result.latencies.sorted()
        func percentile(_ p: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
            return String(format: "%.2f ms", Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000)
        }
        let volumeSignals = clients.map { $0.volumes.count }
        let seeked = clients.map(\.seekedCount)
        print("""
            load test: \(result.calls) calls from \(Self.clientCount) clients in \(Self.seconds) s \
            (\(Int(Double(result.calls) / Self.seconds)) calls/s); latency p50 \(percentile(0.5)), \
            p99 \(percentile(0.99)), max \(percentile(1)); errors \(result.errors); mismatched replies \(result.mismatched.count); \
            volume signals per client \(volumeSignals.min() ?? 0)–\(volumeSignals.max() ?? 0); \
            Seeked per client \(seeked.min() ?? 0)–\(seeked.max() ?? 0)
            """)
        #expect(result.errors.isEmpty, "calls failed: \(result.errors)")
        #expect(result.mismatched.isEmpty, "replies that do not match their call: \(result.mismatched.prefix(10))")
        #expect(outOfOrder.isEmpty, "clients that saw volume changes out of order: \(outOfOrder)")
        #expect(try await world.player("PlaybackStatus") == .string("Playing"))
        world.kill()
    }

    /// One call chosen by the client's number and step; returns a description if the reply is
    /// not the answer to that call. Client 0 is the only one that sets Volume, always higher.
    private static func oneCall(_ client: Client, index: Int, step: Int, shared: Shared) async throws -> String? {
        let timeout = Duration.seconds(20)
        if index == 0 {
            let volume = 0.05 + Double(step) * 1e-5
            try await client.proxy(MPRISNames.player).setProperty("Volume", to: .double(volume))
            shared.lastVolume.withLock { $0 = volume }
            return nil
        }
        switch (index + step) % 8 {
        case 0:
            let reply = try await client.proxy("org.freedesktop.DBus.Peer").call("Ping", timeout: timeout)
            return reply.isEmpty ? nil : "Ping answered \(reply)"
        case 1:
            let identity = try await client.proxy(MPRISNames.root).property("Identity")
            return identity == .string("Linnet") ? nil : "Identity answered \(identity)"
        case 2:
            let all = try await client.proxy(MPRISNames.player).allProperties()
            return all["PlaybackStatus"] != nil && all["Volume"] != nil && all["Identity"] == nil ? nil : "GetAll(Player) answered \(all.keys.sorted())"
        case 3:
            let all = try await client.proxy(MPRISNames.root).allProperties()
            return all["Identity"] == .string("Linnet") && all["PlaybackStatus"] == nil ? nil : "GetAll(root) answered \(all.keys.sorted())"
        case 4:
            let position = try await client.proxy(MPRISNames.player).property("Position")
            if case .int64 = position { return nil }
            return "Position answered \(position)"
        case 5 where step % 20 == 5:
            // Seeking a little forward now and then: replies are empty, Seeked goes to everyone.
            let reply = try await client.proxy(MPRISNames.player).call("Seek", [.int64(1_000)], timeout: timeout)
            return reply.isEmpty ? nil : "Seek answered \(reply)"
        case 6:
            let tracks = try await client.proxy(MPRISNames.trackList).property("Tracks")
            if case .array(.objectPath, let ids) = tracks, ids.count == 1 { return nil }
            return "Tracks answered \(tracks)"
        default:
            let status = try await client.proxy(MPRISNames.player).property("LoopStatus")
            return status == .string("Track") ? nil : "LoopStatus answered \(status)"
        }
    }
}
