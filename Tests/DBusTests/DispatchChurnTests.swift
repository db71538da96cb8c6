import DBus
import EventLoop
import Foundation
import Synchronization
import Testing
import TestSupport

/// Messages are dispatched inside the socket watch's own callback, so the watches of a connection
/// change while one of them is being handled: a reply bigger than the socket buffer toggles the
/// write watch, a peer hangs up mid-call, a handler closes or releases its own connection, and
/// connections are closed or released from other threads while their sockets are busy. None of
/// this may abort in libdbus ("Watch is invalid"), corrupt the heap or hang; every call ends
/// with its reply or a D-Bus error, and the survivors keep answering.
@Suite struct DispatchChurnTests {
    private static let name: BusName = "org.linnet.Churn"
    private static let path: ObjectPath = "/org/linnet/Churn"
    private static let interface: InterfaceName = "org.linnet.Churn"

    /// An exported object whose `Blob(u)` answers a string of that many bytes, and whose
    /// `Hangup` and `Release` close or drop the serving connection from inside the handler.
    private final class ChurnServer: @unchecked Sendable {
        private let lock = NSLock()
        private var held: DBusConnection?
        private(set) weak var connection: DBusConnection?
        let counted = Recorder<Int>()

        init(bus: PrivateBus) throws {
            let connection = try DBusConnection(address: bus.address)
            held = connection
            self.connection = connection
            try connection.export([interface()], at: DispatchChurnTests.path)
            guard try connection.requestName(DispatchChurnTests.name) == .primaryOwner else {
                throw TestSupportError("name taken")
            }
        }

        private func interface() -> DBusInterface {
            DBusInterface(name: DispatchChurnTests.interface, methods: [
                DBusMethod("Blob", inputs: [DBusArgument("size", .uint32)], outputs: [DBusArgument(nil, .string)]) { call in
                    [.string(blob(Int(try call.argument(0, as: UInt32.self))))]
                },
                DBusMethod("Count") { [weak self] _ in
                    self?.counted.record(1)
                    return []
                },
                DBusMethod("Hangup") { [weak self] _ in
                    self?.connection?.close()
                    return []
                },
                DBusMethod("Release") { [weak self] _ in
                    self?.release()
                    return []
                },
            ])
        }

        /// Drops the only strong reference to the connection; the dispatch still running keeps
        /// it alive until that pass ends, inside the watch's callback.
        func release() {
            lock.lock()
            held = nil
            lock.unlock()
        }
    }

    /// `size` bytes that show truncation or reordering: a counter of lines of 64 bytes.
    private static func blob(_ size: Int) -> String {
        var text = ""
        text.reserveCapacity(size + 64)
        var line = 0
        while text.utf8.count < size {
            let number = String(line)
            text += String(repeating: "-", count: 63 - number.count) + number + "\n"
            line += 1
        }
        return String(text.utf8.prefix(size))!
    }

    private static func proxy(_ connection: DBusConnection) -> DBusProxy {
        DBusProxy(connection: connection, destination: name, path: path, interface: interface)
    }

    /// Eight clients fetch replies of 512 KiB (the socket buffer is ~208 KiB, so the serving
    /// connection's write watch goes on and off within the calls) while every other round a
    /// client hangs up, from its own task, with such a reply in flight. (A call in flight keeps
    /// its connection alive, so releasing one mid-call is the listeners' test below.)
    @Test func largeRepliesToManyClientsWhileSomeHangUpMidCall() async throws {
        let bus = try PrivateBus()
        let server = try ChurnServer(bus: bus)
        let size = 512 * 1024
        let expected = Self.blob(size)
        let wrong = Recorder<String>()
        let abandoned = Recorder<String>()
        try await withTimeout(.seconds(180), "large replies") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<8 {
                    group.addTask {
                        for round in 0..<6 {
                            let connection = try DBusConnection(address: bus.address)
                            let proxy = Self.proxy(connection)
                            let reply = try await proxy.call("Blob", [.uint32(UInt32(size))])
                            if reply != [.string(expected)] { wrong.record("client \(client) round \(round)") }
                            guard round % 2 == 1 else { continue }
                            // A call whose reply is still being written when the caller goes.
                            let inFlight = Task { () -> String in
                                do {
                                    _ = try await proxy.call("Blob", [.uint32(UInt32(size * 2))], timeout: .seconds(60))
                                    return "answered"
                                } catch {
                                    return (error as? DBusError)?.name.rawValue ?? "\(error)"
                                }
                            }
                            connection.close()
                            abandoned.record(await inFlight.value)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(wrong.values.isEmpty, "replies that differ: \(wrong.values.prefix(5))")
        // Every abandoned call ended: answered before the hang-up, or failed with a D-Bus error.
        #expect(abandoned.values.count == 8 * 3)
        let outcomes = Set(abandoned.values)
        #expect(outcomes.isSubset(of: ["answered", ErrorName.disconnected.rawValue, ErrorName.noReply.rawValue]), "\(outcomes)")
        // The server survived all of it and still answers in full.
        let survivor = try DBusConnection(address: bus.address)
        #expect(try await Self.proxy(survivor).call("Blob", [.uint32(UInt32(size))]) == [.string(expected)])
        withExtendedLifetime(server) {}
    }

    /// The serving connection closes itself inside a handler, with more calls queued behind in
    /// the same batch: the batch goes on over a closed connection, the caller of `Hangup` gets
    /// an error from the bus, and the loop goes on serving a new owner of the name.
    @Test func aHandlerClosesItsOwnConnectionWithCallsQueuedBehind() async throws {
        let bus = try PrivateBus()
        let server = try ChurnServer(bus: bus)
        let events = try #require(server.connection).events()
        let client = try DBusConnection(address: bus.address)
        let proxy = Self.proxy(client)
        for _ in 0..<20 { try client.callNoReply(destination: Self.name, path: Self.path, interface: Self.interface, member: "Count") }
        let hangup = Task { () -> String in
            do {
                _ = try await proxy.call("Hangup", timeout: .seconds(60))
                return "answered"
            } catch {
                return (error as? DBusError)?.name.rawValue ?? "\(error)"
            }
        }
        for _ in 0..<20 { try client.callNoReply(destination: Self.name, path: Self.path, interface: Self.interface, member: "Count") }
        let sawDisconnect = try await withTimeout(.seconds(30), "disconnect event") {
            for await event in events where event == .disconnected { return true }
            return false
        }
        #expect(sawDisconnect)
        let outcome = try await withTimeout(.seconds(60), "the Hangup call") { await hangup.value }
        // The handler returned after closing: its reply could not be sent, so the bus answers
        // for the vanished peer.
        #expect(outcome == ErrorName.noReply.rawValue || outcome == "answered", "\(outcome)")
        // The 20 calls sent before Hangup reached the handler before the connection closed.
        #expect(server.counted.values.count >= 20)
        #expect(server.connection?.isConnected == false)

        let next = try ChurnServer(bus: bus)
        #expect(try await Self.proxy(client).call("Blob", [.uint32(100)]) == [.string(Self.blob(100))])
        withExtendedLifetime(next) {}
    }

    /// A handler drops the last reference to its own connection: the connection is torn down
    /// (watches removed, closed, freed) at the end of the dispatch, still inside the callback of
    /// the watch that read the call.
    @Test func aHandlerReleasesTheLastReferenceToItsConnection() async throws {
        let bus = try PrivateBus()
        let server = try ChurnServer(bus: bus)
        let client = try DBusConnection(address: bus.address)
        let outcome: String
        do {
            _ = try await Self.proxy(client).call("Release", timeout: .seconds(60))
            outcome = "answered"
        } catch {
            outcome = error.name.rawValue
        }
        #expect(outcome == "answered" || outcome == ErrorName.noReply.rawValue, "\(outcome)")
        try await waitUntil(.seconds(30), "the released connection is gone") {
            try await !client.nameHasOwner(Self.name) && server.connection == nil
        }
        let next = try ChurnServer(bus: bus)
        #expect(try await Self.proxy(client).call("Blob", [.uint32(64)]) == [.string(Self.blob(64))])
        withExtendedLifetime(next) {}
    }

    /// A send queued from another thread just before that thread drops its last reference,
    /// while the loop is dispatching for the same connection (which holds it for the pass): the
    /// connection must outlive the queued send, and the message must go out. Before the queued
    /// send held the connection, the pass's end closed and freed it first.
    @Test func aSendQueuedJustBeforeTheLastReferenceIsDroppedStillGoesOut() async throws {
        let bus = try PrivateBus()
        let server = try ChurnServer(bus: bus)
        let emitter = try DBusConnection(address: bus.address)
        // A loop of its own: the handler below holds it, and tests sharing the process's loop
        // wait on that one (with cooperative threads this test needs).
        let loop = EventLoop(name: "test.hold")
        defer { loop.stop() }
        // Held in a box so the thread that sees the handler enter can queue the call and drop
        // the last reference itself: resuming a test task on a loaded cooperative pool can take
        // longer than the handler's patience.
        let holder = HeldConnection(try DBusConnection(address: bus.address, loop: loop))
        weak let released = holder.connection
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let heldTooLong = Recorder<Bool>()
        // The handler holds the loop inside the listener's dispatch until the test let go.
        let subscription = try holder.connection!.subscribe(MatchRule(interface: "org.linnet.Hold")) { _ in
            entered.signal()
            if proceed.wait(timeout: .now() + 30) == .timedOut { heldTooLong.record(true) }
        }
        try emitter.emitSignal("Hold", interface: "org.linnet.Hold", path: "/hold")
        try await offPool {
            guard entered.wait(timeout: .now() + 30) == .success else { throw TestSupportError("the handler never ran") }
            defer { proceed.signal() }
            try Self.queueCountAndRelease(holder)
        }
        try await waitUntil(.seconds(30), "the queued call arrived") { !server.counted.values.isEmpty }
        try await waitUntil(.seconds(30), "the listener was released") { released == nil }
        #expect(server.counted.values.count == 1)
        #expect(heldTooLong.values.isEmpty)
        withExtendedLifetime(subscription) {}
    }

    /// Queues a call on the held listener and drops the last reference to it, both while its
    /// loop is still inside the handler.
    private static func queueCountAndRelease(_ holder: HeldConnection) throws {
        let listener = holder.take()
        try listener?.callNoReply(destination: name, path: path, interface: interface, member: "Count")
    }

    /// The failure that made inline dispatch be dropped once: a connection closed or released
    /// from another thread while the loop is handling its socket. Listeners receive a stream of
    /// 64 KiB signals and are closed or released from their tasks as soon as the first arrived,
    /// with more of the stream still arriving on their sockets.
    @Test func connectionsClosedOrReleasedOffTheLoopWhileTheirSocketsAreBusy() async throws {
        let bus = try PrivateBus()
        let emitter = try DBusConnection(address: bus.address)
        let payload = DBusValue.string(String(repeating: "s", count: 64 * 1024))
        let stop = Recorder<Bool>()
        let emitted = Recorder<Int>()
        let emitting = Thread {
            var count = 0
            while stop.values.isEmpty {
                // Keep a bounded backlog: the bus drops a connection whose queue grows too far.
                // The bus answers a Ping after everything the emitter sent before it.
                if count % 16 == 15 {
                    _ = try? emitter.callBlocking(destination: .bus, path: "/org/freedesktop/DBus", interface: .peer, member: "Ping")
                }
                try? emitter.emitSignal("Chunk", interface: "org.linnet.Churn", path: "/stream", arguments: [payload])
                count += 1
            }
            emitted.record(count)
        }
        emitting.start()
        defer { stop.record(true) }
        let received = Recorder<Int>()
        try await withTimeout(.seconds(180), "listeners") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for listenerIndex in 0..<8 {
                    group.addTask {
                        for round in 0..<12 {
                            var listener: DBusConnection? = try DBusConnection(address: bus.address)
                            let got = Recorder<Int>()
                            let subscription = try listener!.subscribe(MatchRule(interface: "org.linnet.Churn")) { _ in
                                got.record(1)
                            }
                            try await waitUntil(.seconds(60), "a signal") { !got.values.isEmpty }
                            received.record(got.values.count)
                            if (listenerIndex + round) % 2 == 0 { listener?.close() }
                            subscription.cancel()
                            listener = nil
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        stop.record(true)
        #expect(received.values.count == 8 * 12)
        #expect(received.values.allSatisfy { $0 >= 1 })
        // The emitting connection is intact: a round trip to the bus still works.
        _ = try await emitter.call(destination: .bus, path: "/org/freedesktop/DBus", interface: .peer, member: "Ping")
        #expect(emitter.isConnected)
    }
}

/// The one strong reference to a connection, which any thread can take away.
private final class HeldConnection: Sendable {
    private let slot: Mutex<DBusConnection?>

    init(_ connection: DBusConnection) {
        slot = Mutex(connection)
    }

    /// The connection while it is still held.
    var connection: DBusConnection? { slot.withLock { $0 } }

    /// Hands the reference over, leaving nothing held.
    func take() -> DBusConnection? {
        slot.withLock { held in
            defer { held = nil }
            return held
        }
    }
}
