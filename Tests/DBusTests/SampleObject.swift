import DBus
import Foundation
import TestSupport

/// An exported object with every kind of property and method a server can declare, for tests
/// that poke it from outside.
final class SampleObject: @unchecked Sendable {
    static let name: BusName = "org.linnet.Sample"
    static let path: ObjectPath = "/org/linnet/Sample/Main"
    static let interface: InterfaceName = "org.linnet.Sample"
    static let customError: ErrorName = "org.linnet.Sample.Error.Custom"

    let connection: DBusConnection
    private let lock = NSLock()
    private var volume = 0.5
    private var heldReplies: [DBusPendingReply] = []
    let counter = Recorder<Int>()

    init(bus: PrivateBus, requestName: Bool = true) throws {
        connection = try DBusConnection(address: bus.address)
        try connection.export([makeInterface()], at: Self.path)
        try connection.export([DBusInterface(name: "org.linnet.Sample.Child")], at: "/org/linnet/Sample/Main/child")
        if requestName {
            guard try connection.requestName(Self.name) == .primaryOwner else { throw TestSupportError("name taken") }
        }
    }

    var currentVolume: Double {
        lock.lock()
        defer { lock.unlock() }
        return volume
    }

    func setVolume(_ value: Double) {
        lock.lock()
        volume = value
        lock.unlock()
    }

    private func makeInterface() -> DBusInterface {
        DBusInterface(
            name: Self.interface,
            methods: [
                DBusMethod("Add", inputs: [DBusArgument("a", .int32), DBusArgument("b", .int32)],
                           outputs: [DBusArgument("sum", .int32)]) { call in
                    [.int32(try call.argument(0, as: Int32.self) &+ call.argument(1, as: Int32.self))]
                },
                DBusMethod("Fail") { _ in throw DBusError(Self.customError, "asked to fail") },
                DBusMethod("WrongReply", outputs: [DBusArgument(nil, .string)]) { _ in [.int32(1)] },
                DBusMethod("Later", inputs: [DBusArgument("text", .string)], outputs: [DBusArgument(nil, .string)],
                           handler: .deferred { call, reply in
                    let text = (try? call.argument(0, as: String.self)) ?? ""
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { reply.succeed([.string(text.uppercased())]) }
                }),
                DBusMethod("Never", handler: .deferred { [weak self] _, reply in self?.hold(reply) }),
                DBusMethod("Dropped", handler: .deferred { _, _ in }),
                .async("Async", inputs: [DBusArgument(nil, .uint32)], outputs: [DBusArgument(nil, .uint32)]) { call in
                    try await Task.sleep(for: .milliseconds(10))
                    return [.uint32(try call.argument(0, as: UInt32.self) * 2)]
                },
            ],
            properties: [
                DBusProperty("Volume", type: .double, access: .readwrite,
                             get: { [weak self] in .double(self?.currentVolume ?? 0) },
                             set: { [weak self] value in
                                 guard case .double(let volume) = value, volume >= 0 else {
                                     throw DBusError(.invalidArgs, "volume must be ≥ 0")
                                 }
                                 self?.setVolume(volume)
                             }),
                DBusProperty("Identity", type: .string, emitsChangedSignal: .const, get: { .string("Sample") }),
                DBusProperty("Tracks", type: .array(.objectPath), emitsChangedSignal: .invalidates,
                             get: { .array(.objectPath, [.objectPath("/t/1")]) }),
                DBusProperty("Position", type: .int64, emitsChangedSignal: .false, get: { .int64(42) }),
                DBusProperty("Empty", type: .array(.string), get: { .array(.string, []) }),
                DBusProperty("Broken", type: .string, get: { .int32(3) }),
            ],
            signals: [DBusSignalDeclaration("Seeked", arguments: [DBusArgument("Position", .int64)])],
            annotations: [DBusAnnotation(name: "org.linnet.Note", value: "a <sample> & \"quoted\"")])
    }

    private func hold(_ reply: DBusPendingReply) {
        lock.lock()
        heldReplies.append(reply)
        lock.unlock()
    }
}
