import DBus
import TestSupport

/// A test service whose methods `Case0`, `Case1`, … each take one argument of a given type,
/// record what arrived and send it straight back; `Produce0`, `Produce1`, … take nothing and
/// return values built in Swift.
final class EchoService: @unchecked Sendable {
    static let name: BusName = "org.linnet.Test"
    static let path: ObjectPath = "/org/linnet/Test"
    static let interface: InterfaceName = "org.linnet.Test.Echo"

    let connection: DBusConnection
    let received = Recorder<DBusValue>()

    init(bus: PrivateBus, types: [DBusType], produces: [DBusValue] = []) throws {
        connection = try DBusConnection(address: bus.address)
        let received = self.received
        let methods = types.enumerated().map { index, type in
            DBusMethod(
                MemberName(rawValue: "Case\(index)")!, inputs: [DBusArgument("value", type)],
                outputs: [DBusArgument("echo", type)]
            ) { call in
                received.record(call.arguments[0])
                return call.arguments
            }
        }
        let producers = produces.enumerated().map { index, value in
            DBusMethod(MemberName(rawValue: "Produce\(index)")!, outputs: [DBusArgument("value", value.type)]) { _ in
                [value]
            }
        }
        try connection.export([DBusInterface(name: Self.interface, methods: methods + producers)], at: Self.path)
        guard try connection.requestName(Self.name, flags: .doNotQueue) == .primaryOwner else {
            throw TestSupportError("could not own \(Self.name)")
        }
    }
}
