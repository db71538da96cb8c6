import DBus
import Testing
import TestSupport

/// Name ownership and bus queries against a real dbus-daemon.
@Suite struct NameOwnershipTests {
    @Test func requestReleaseAndQuery() async throws {
        let bus = try PrivateBus()
        let owner = try DBusConnection(address: bus.address)
        let other = try DBusConnection(address: bus.address)
        let name: BusName = "org.linnet.Names.A"
        #expect(try await other.nameHasOwner(name) == false)
        #expect(try owner.requestName(name) == .primaryOwner)
        #expect(try owner.requestName(name) == .alreadyOwner)
        #expect(try await other.nameHasOwner(name))
        #expect(try await other.nameOwner(name) == owner.uniqueName)
        #expect(try await other.listNames().contains(name))
        #expect(try other.requestName(name, flags: .doNotQueue) == .exists)
        #expect(try other.releaseName(name) == .notOwner)
        #expect(try owner.releaseName(name) == .released)
        #expect(try owner.releaseName(name) == .nonExistent)
        do {
            _ = try await other.nameOwner(name)
            Issue.record("a released name still has an owner")
        } catch {
            #expect(error.name == .nameHasNoOwner)
        }
        #expect(try await other.listActivatableNames().contains(.bus))
    }

    @Test func replacementMovesTheNameAndReportsAcquiredAndLost() async throws {
        let bus = try PrivateBus()
        let first = try DBusConnection(address: bus.address)
        let second = try DBusConnection(address: bus.address)
        let name: BusName = "org.linnet.Names.B"
        let firstEvents = Recorder<DBusConnectionEvent>()
        let secondEvents = Recorder<DBusConnectionEvent>()
        first.onEvent { firstEvents.record($0) }
        second.onEvent { secondEvents.record($0) }
        let changes = Recorder<NameOwnerChange>()
        let watcher = try DBusConnection(address: bus.address)
        let watch = try watcher.watchNameOwners(name) { changes.record($0) }

        #expect(try first.requestName(name, flags: .allowReplacement) == .primaryOwner)
        #expect(try second.requestName(name, flags: .doNotQueue) == .exists)
        #expect(try second.requestName(name, flags: .replaceExisting) == .primaryOwner)
        // Round-trips through each connection's loop make sure their signals were dispatched.
        try await waitUntil { firstEvents.values.contains(.nameLost(name)) && secondEvents.values.contains(.nameAcquired(name)) }
        #expect(firstEvents.values.contains(.nameAcquired(name)))
        try await waitUntil { changes.values.count >= 2 }
        #expect(changes.values[0] == NameOwnerChange(name: name, oldOwner: nil, newOwner: first.uniqueName))
        #expect(changes.values[1] == NameOwnerChange(name: name, oldOwner: first.uniqueName, newOwner: second.uniqueName))
        watch.cancel()
    }

    @Test func queuedRequesterGetsTheNameWhenTheOwnerLeaves() async throws {
        let bus = try PrivateBus()
        let name: BusName = "org.linnet.Names.C"
        var first: DBusConnection? = try DBusConnection(address: bus.address)
        let second = try DBusConnection(address: bus.address)
        let events = Recorder<DBusConnectionEvent>()
        second.onEvent { events.record($0) }
        #expect(try first!.requestName(name) == .primaryOwner)
        #expect(try second.requestName(name) == .inQueue)
        first = nil
        try await waitUntil { events.values.contains(.nameAcquired(name)) }
        #expect(try await second.nameOwner(name) == second.uniqueName)
    }
}
