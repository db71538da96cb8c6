import DBus
import Testing
import TestSupport

/// The bus going away is an event, never a process exit.
@Suite struct DisconnectTests {
    @Test func killingTheBusReportsDisconnectAndTheProcessSurvives() async throws {
        let bus = try PrivateBus()
        let connection = try DBusConnection(address: bus.address)
        let events = connection.events()
        #expect(connection.isConnected)
        bus.stop()
        let sawDisconnect = try await withTimeout(.seconds(10), "disconnect event") {
            for await event in events where event == .disconnected { return true }
            return false
        }
        #expect(sawDisconnect)
        #expect(!connection.isConnected)
        do {
            _ = try await connection.call(destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "ListNames")
            Issue.record("a call on a dead connection succeeded")
        } catch {
            #expect(error.name == .disconnected || error.name == .noReply)
        }
        #expect(throws: DBusError.self) { try connection.emitSignal("X", interface: "org.linnet.X", path: "/") }
    }

    @Test func pendingCallFailsWhenTheBusDies() async throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        let client = try DBusConnection(address: bus.address)
        let proxy = DBusProxy(connection: client, destination: SampleObject.name, path: SampleObject.path,
                              interface: SampleObject.interface)
        let outcome = Task {
            do {
                try await proxy.call("Never", timeout: .seconds(60))
                return "answered"
            } catch {
                return (error as? DBusError)?.name.rawValue ?? "\(error)"
            }
        }
        _ = try await proxy.call("Add", [.int32(1), .int32(1)])
        bus.stop()
        // Generous: a run at load ~13 took 28 s before it got here, and then over 10 s more.
        let name = try await withTimeout(.seconds(60), "pending call failure") { await outcome.value }
        #expect(name == ErrorName.noReply.rawValue || name == ErrorName.disconnected.rawValue)
        withExtendedLifetime(object) {}
    }

    @Test func closingLocallyReportsDisconnect() async throws {
        let bus = try PrivateBus()
        let connection = try DBusConnection(address: bus.address)
        let events = connection.events()
        connection.close()
        let sawDisconnect = try await withTimeout(.seconds(10), "disconnect event") {
            for await event in events where event == .disconnected { return true }
            return false
        }
        #expect(sawDisconnect)
    }
}
