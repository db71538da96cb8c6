import DBus
import Foundation
import Testing
import TestSupport

/// Declared argument limits are enforced on the received message before the handler (or any
/// decoding) runs, at every depth, and the refusal quotes at most a short excerpt.
@Suite struct ArgumentLimitTests {
    static let name: BusName = "org.linnet.Limited"
    static let path: ObjectPath = "/org/linnet/Limited"
    static let interface: InterfaceName = "org.linnet.Limited"

    /// A service whose `Take(s text, a{sv} options)` counts the calls that reach it.
    final class LimitedService: Sendable {
        let connection: DBusConnection
        let handled = Recorder<MemberName>()

        init(bus: PrivateBus) throws {
            connection = try DBusConnection(address: bus.address)
            let handled = self.handled
            let take = DBusMethod(
                "Take",
                inputs: [DBusArgument("text", .string, limit: .string(maxBytes: 16)),
                         DBusArgument("options", .dictionary(key: .string, value: .variant),
                                      limit: .dictionary(maxEntries: 2, maxStringBytes: 16))]
            ) { call in
                handled.record(call.member)
                return []
            }
            try connection.export([DBusInterface(name: ArgumentLimitTests.interface, methods: [take])], at: ArgumentLimitTests.path)
            guard try connection.requestName(ArgumentLimitTests.name) == .primaryOwner else { throw TestSupportError("name taken") }
        }
    }

    private static func refusal(_ call: () async throws -> [DBusValue]) async -> DBusError? {
        do {
            _ = try await call()
            return nil
        } catch {
            return error as? DBusError
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func overLimitArgumentsAreRefusedBeforeTheHandlerRuns() async throws {
        let bus = try PrivateBus()
        let service = try LimitedService(bus: bus)
        let client = try DBusConnection(address: bus.address)
        let proxy = DBusProxy(connection: client, destination: Self.name, path: Self.path, interface: Self.interface)
        func options(_ entries: [(String, DBusValue)]) -> DBusValue { .stringVariantDictionary(entries) }

        // Within every limit: exactly 16 bytes (8 two-byte characters), two entries.
        _ = try await proxy.call("Take", [.string(String(repeating: "é", count: 8)), options([("a", .string("x")), ("b", .int32(1))])])
        #expect(service.handled.values.count == 1)

        let huge = String(repeating: "é", count: 500_000) + "END"
        let cases: [(String, [DBusValue])] = [
            ("a long string", [.string(huge), options([])]),
            ("one byte over", [.string(String(repeating: "a", count: 17)), options([])]),
            ("too many entries", [.string(""), options([("a", .int32(1)), ("b", .int32(2)), ("c", .int32(3))])]),
            ("a long key", [.string(""), options([(String(repeating: "k", count: 17), .int32(1))])]),
            ("a long string in a variant", [.string(""), options([("a", .string(huge))])]),
            ("a long array in a variant", [.string(""), options([("a", .array(.int32, Array(repeating: .int32(1), count: 3)))])]),
            ("nesting past the value budget", [.string(""), options([("a", .variant(.variant(.variant(.variant(.variant(.variant(.variant(.variant(.variant(.int32(1)))))))))))])]),
        ]
        for (what, arguments) in cases {
            let error = await Self.refusal { try await proxy.call("Take", arguments) }
            #expect(error?.name == .limitsExceeded, "\(what): \(String(describing: error))")
            #expect((error?.message.utf8.count ?? .max) <= 300, "\(what): \(error?.message.utf8.count ?? -1) bytes")
            #expect(error?.message.contains("END") != true, "\(what): the excerpt reaches the end of the input")
        }
        // The excerpt is a clean cut: no half character, and it says where it stopped.
        let error = await Self.refusal { try await proxy.call("Take", [.string(huge), options([])]) }
        #expect(error?.message.contains("\u{FFFD}") == false, "\(String(describing: error))")
        #expect(error?.message.contains("é…") == true, "\(String(describing: error))")
        #expect(service.handled.values.count == 1, "a refused call reached the handler")
    }

    @Test func excerptsAreShortAndCutAtCharacters() {
        #expect(DBusError.excerpt("short") == "short")
        let cut = DBusError.excerpt(String(repeating: "é", count: 300))
        #expect(cut.hasPrefix(String(repeating: "é", count: 50)))
        #expect(cut.hasSuffix("…(600 bytes)"))
        #expect(!cut.contains("\u{FFFD}"))
    }
}
