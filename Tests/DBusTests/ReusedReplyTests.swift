import DBus
import Synchronization
import Testing
import TestSupport

/// GetAll replies reused while an interface's snapshot stays the same object
/// (``DBusPropertiesWriter/init(_:snapshot:writeSnapshot:)``): every caller gets its own reply
/// with the current values, and a new snapshot is written again.
@Suite struct ReusedReplyTests {
    static let name: BusName = "org.linnet.Reused"
    static let path: ObjectPath = "/org/linnet/Reused"
    static let interface: InterfaceName = "org.linnet.Reused"

    /// The values GetAll reports; a new object whenever they change.
    final class Values: Sendable {
        let count: Int64
        init(_ count: Int64) { self.count = count }
    }

    /// What the test sets, and how often each writer ran.
    final class Source: Sendable {
        struct State {
            var values: Values? = Values(1)
            var direct = 0
            var fromSnapshot = 0
        }

        let state = Mutex(State())
    }

    let bus: PrivateBus
    let server: DBusConnection
    let source = Source()

    init() throws {
        bus = try PrivateBus()
        server = try DBusConnection(address: bus.address)
        let source = source
        let writer = DBusPropertiesWriter({ map in
            let count = source.state.withLock { state in
                state.direct += 1
                return state.values?.count ?? -1
            }
            map.appendEntry("Count", variantOf: .int64) { $0.append(count) }
        }, snapshot: {
            source.state.withLock { $0.values }
        }, writeSnapshot: { values, map in
            source.state.withLock { $0.fromSnapshot += 1 }
            map.appendEntry("Count", variantOf: .int64) { $0.append(values.count) }
        })
        try server.export([DBusInterface(
            name: Self.interface,
            properties: [DBusProperty("Count", type: .int64, get: { .int64(source.state.withLock { $0.values?.count ?? -1 }) })],
            propertiesWriter: writer)], at: Self.path)
        guard try server.requestName(Self.name) == .primaryOwner else { throw TestSupportError("name taken") }
    }

    private func getAll(_ client: DBusConnection) throws -> [DBusValue] {
        try client.callBlocking(destination: Self.name, path: Self.path, interface: .properties, member: "GetAll",
                                arguments: [.string(Self.interface.rawValue)])
    }

    @Test func aSnapshotIsWrittenOnceAndEveryCallerGetsItsOwnReply() throws {
        let first = try DBusConnection(address: bus.address)
        let second = try DBusConnection(address: bus.address)
        let expected: [DBusValue] = [.stringVariantDictionary([("Count", .int64(1))])]
        for _ in 0..<3 {
            #expect(try getAll(first) == expected)
            #expect(try getAll(second) == expected)
        }
        #expect(source.state.withLock { $0.fromSnapshot } == 1)
        #expect(source.state.withLock { $0.direct } == 0)

        source.state.withLock { $0.values = Values(2) }
        #expect(try getAll(second) == [.stringVariantDictionary([("Count", .int64(2))])])
        #expect(try getAll(first) == [.stringVariantDictionary([("Count", .int64(2))])])
        #expect(source.state.withLock { $0.fromSnapshot } == 2)
    }

    @Test func withoutASnapshotTheEntriesAreWrittenEachTime() throws {
        let client = try DBusConnection(address: bus.address)
        source.state.withLock { $0.values = nil }
        #expect(try getAll(client) == [.stringVariantDictionary([("Count", .int64(-1))])])
        #expect(try getAll(client) == [.stringVariantDictionary([("Count", .int64(-1))])])
        #expect(source.state.withLock { $0.fromSnapshot } == 0)
        #expect(source.state.withLock { $0.direct } == 2)
        // Back to a snapshot: its reply is written, not one kept from before.
        source.state.withLock { $0.values = Values(5) }
        #expect(try getAll(client) == [.stringVariantDictionary([("Count", .int64(5))])])
    }
}
