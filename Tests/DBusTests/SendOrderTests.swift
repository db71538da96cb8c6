import DBus
import EventLoop
import Glibc
import Testing
import TestSupport

/// What a connection sends from other threads keeps its place against what its loop thread
/// answers: a signal emitted before a call arrived goes out before that call's reply, also when
/// the loop finds the queued signal and the readable call in the same iteration.
@Suite struct SendOrderTests {
    private static let path: ObjectPath = "/org/linnet/Order"
    private static let interface: InterfaceName = "org.linnet.Order"

    @Test func aSignalEmittedBeforeACallArrivedGoesOutBeforeTheReply() async throws {
        let bus = try PrivateBus()
        let serverLoop = EventLoop(name: "order.server")
        let clientLoop = EventLoop(name: "order.client")
        defer {
            serverLoop.stop()
            clientLoop.stop()
        }
        let server = try DBusConnection(address: bus.address, loop: serverLoop)
        try server.export([DBusInterface(name: Self.interface, methods: [DBusMethod("Echo") { _ in [] }])],
                          at: Self.path)
        let destination = try #require(server.uniqueName)
        let client = try DBusConnection(address: bus.address, loop: clientLoop)
        let seen = Recorder<String>()
        let subscription = try client.subscribe(MatchRule(interface: Self.interface)) { signal in
            seen.record("signal \(signal.arguments)")
        }
        defer { subscription.cancel() }
        // The bus applies the match before it answers this, so no signal below can miss it.
        _ = try await client.call(destination: destination, path: Self.path, interface: Self.interface, member: "Echo")

        let socket = server.socketDescriptor
        #expect(socket >= 0)
        for round in Int32(0)..<10 {
            // Holds the server's loop, so the signal waits in its outbox and the call in its socket.
            // The waits are off Swift's pool: blocking one of its two threads here starved other
            // tests' event readers, and the call below needs a pool thread to be sent at all.
            let release = try await offPool { serverLoop.hold() }
            try server.emitSignal("Sent", interface: Self.interface, path: Self.path, arguments: [.int32(round)])
            async let reply = client.call(destination: destination, path: Self.path, interface: Self.interface,
                                          member: "Echo")
            // Both are waiting once the call's bytes have reached the server (60 s bounds a hang).
            let readable = try await offPool {
                var events = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                return poll(&events, 1, 60_000)
            }
            #expect(readable == 1)
            release()
            _ = try await reply
            seen.record("reply \(round)")
        }
        // The client dispatches in arrival order, and records a signal before resuming the call.
        let expected = (Int32(0)..<10).flatMap { ["signal [DBus.DBusValue.int32(\($0))]", "reply \($0)"] }
        #expect(seen.values == expected)
    }
}
