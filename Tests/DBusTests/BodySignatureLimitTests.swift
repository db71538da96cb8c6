import DBus
import Foundation
import Testing
import TestSupport

/// A message body whose signature is longer than D-Bus's 255 bytes cannot be sent: the bus
/// drops a sender of such a message. Found by the bus fuzzer, where a call with 300 arguments
/// left the client waiting forever.
@Suite struct BodySignatureLimitTests {
    @Test func callWithOverlongBodySignatureIsRefusedAndTheConnectionStaysUsable() async throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        let client = try DBusConnection(address: bus.address)
        let sample = DBusProxy(connection: client, destination: SampleObject.name, path: SampleObject.path,
                               interface: SampleObject.interface)
        let arguments = [DBusValue](repeating: .int32(1), count: 256)
        try await withTimeout(.seconds(10), "an overlong call") {
            let overlong = await Self.errorName { try await sample.call("Add", arguments) }
            #expect(overlong == .limitsExceeded)
            // Exactly 255 bytes is allowed; the peer answers InvalidArgs for the wrong signature.
            let longest = await Self.errorName { try await sample.call("Add", Array(arguments.prefix(255))) }
            #expect(longest == .invalidArgs)
            let sum = try await sample.call("Add", [.int32(2), .int32(3)])
            #expect(sum == [.int32(5)])
        }
        _ = object
    }

    /// The name of the D-Bus error `call` throws, or nil if it succeeds.
    private static func errorName(_ call: () async throws -> [DBusValue]) async -> ErrorName? {
        do {
            _ = try await call()
            return nil
        } catch {
            return (error as? DBusError)?.name
        }
    }
}
