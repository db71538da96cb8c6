import DBus
import Testing
import TestSupport

/// Replies written straight into the message (``DBusMessageWriter``): a client reads the same
/// values as from a ``DBusValue`` reply, and every way a writer can go wrong is a D-Bus error.
@Suite struct WrittenReplyTests {
    static let name: BusName = "org.linnet.Written"
    static let path: ObjectPath = "/org/linnet/Written"
    static let interface: InterfaceName = "org.linnet.Written"
    static let map: DBusType = .dictionary(key: .string, value: .variant)

    let bus: PrivateBus
    let server: DBusConnection
    let client: DBusConnection

    init() throws {
        bus = try PrivateBus()
        server = try DBusConnection(address: bus.address)
        try server.export([Self.makeInterface()], at: Self.path)
        guard try server.requestName(Self.name) == .primaryOwner else { throw TestSupportError("name taken") }
        client = try DBusConnection(address: bus.address)
    }

    private static func makeInterface() -> DBusInterface {
        DBusInterface(
            name: interface,
            methods: [
                DBusMethod("Pairs", inputs: [DBusArgument("keys", .array(.string))], outputs: [DBusArgument(nil, map)],
                           handler: .writing { call, writer in
                    let keys = try call.argument(0, as: [String].self)
                    writer.appendArray(of: .stringVariantEntry) { entries in
                        for (index, key) in keys.enumerated() {
                            entries.appendEntry(key, variantOf: .int32) { $0.append(Int32(index)) }
                        }
                    }
                }),
                DBusMethod("PathsInPlace", inputs: [DBusArgument("paths", .array(.objectPath))],
                           outputs: [DBusArgument(nil, .array(.string))], handler: .writingUndecoded(echoPaths)),
                DBusMethod("PathsDecoded", inputs: [DBusArgument("paths", .array(.objectPath))],
                           outputs: [DBusArgument(nil, .array(.string))], handler: .writing(echoPaths)),
                DBusMethod("WrongShape", outputs: [DBusArgument(nil, .string)], handler: .writing { _, writer in
                    writer.append(Int32(1))
                }),
                DBusMethod("Throws", outputs: [DBusArgument(nil, .string)], handler: .writing { _, writer in
                    writer.append("half")
                    throw DBusError(.notSupported, "not now")
                }),
                DBusMethod("BadString", outputs: [DBusArgument(nil, .array(.string))], handler: .writing { _, writer in
                    writer.append(["fine", "nul\u{0}inside"])
                }),
            ],
            properties: [
                DBusProperty("Count", type: .int64, get: { .int64(7) }, write: { $0.append(Int64(7)) }),
                DBusProperty("Names", type: .array(.string), get: { .array(.string, [.string("a"), .string("b")]) },
                             write: { $0.append(["a", "b"]) }),
                // The writer refuses its string; the getter's answer (the same bad string) then
                // fails validation as a getter reply always did.
                DBusProperty("Bad", type: .string, get: { .string("x\u{0}y") }, write: { $0.append("x\u{0}y") }),
            ])
    }

    /// Answers the paths of argument 0 as strings, read through `forEachObjectPath`, and refuses
    /// more than two.
    @Sendable private static func echoPaths(_ call: DBusMethodCall, _ writer: inout DBusMessageWriter) throws {
        var paths: [String] = []
        try call.forEachObjectPath(inArgument: 0) { bytes throws(DBusError) in
            guard paths.count < 2 else { throw DBusError(.limitsExceeded, "at most two paths") }
            paths.append(String(decoding: bytes, as: UTF8.self))
        }
        writer.append(paths)
    }

    private func call(_ member: MemberName, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        try client.callBlocking(destination: Self.name, path: Self.path, interface: Self.interface, member: member,
                                arguments: arguments)
    }

    private func properties(_ member: MemberName, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try client.callBlocking(destination: Self.name, path: Self.path, interface: .properties, member: member,
                                arguments: arguments)
    }

    @Test func writtenMethodReplyReadsAsValues() throws {
        let reply = try call("Pairs", [.array(.string, [.string("one"), .string("two")])])
        #expect(reply == [.stringVariantDictionary([("one", .int32(0)), ("two", .int32(1))])])
        // An empty container still carries its element type.
        #expect(try call("Pairs", [.array(.string, [])]) == [.stringVariantDictionary([])])
    }

    /// A handler reads an `ao` in place (arguments left undecoded) exactly as from decoded
    /// arguments; its thrown error and a call of another signature are answered as D-Bus errors.
    @Test func objectPathsReadInPlaceEqualTheDecodedOnes() throws {
        let paths: DBusValue = .array(.objectPath, [.objectPath("/a/1"), .objectPath("/")])
        for member: MemberName in ["PathsInPlace", "PathsDecoded"] {
            #expect(try call(member, [paths]) == [.array(.string, [.string("/a/1"), .string("/")])], "\(member)")
            #expect(try call(member, [.array(.objectPath, [])]) == [.array(.string, [])], "\(member)")
            let three: DBusValue = .array(.objectPath, [.objectPath("/a"), .objectPath("/b"), .objectPath("/c")])
            do {
                _ = try call(member, [three])
                Issue.record("\(member) accepted three paths")
            } catch let error as DBusError {
                #expect(error.name == .limitsExceeded, "\(member)")
            }
            do {
                _ = try call(member, [.array(.string, [.string("/a")])])
                Issue.record("\(member) accepted strings")
            } catch let error as DBusError {
                #expect(error.name == .invalidArgs, "\(member)")
            }
        }
    }

    @Test func writtenReplyOfAnotherSignatureIsFailed() throws {
        #expect(throws: DBusError.self) { try call("WrongShape") }
        do {
            _ = try call("WrongShape")
        } catch let error as DBusError {
            #expect(error.name == .failed)
            #expect(error.message.contains("'i' where 's' was declared"))
        }
    }

    @Test func throwingWriterAnswersItsError() throws {
        do {
            _ = try call("Throws")
            Issue.record("Throws answered without an error")
        } catch let error as DBusError {
            #expect(error.name == .notSupported)
            #expect(error.message == "not now")
        }
    }

    @Test func badStringIsInvalidArgsAndTheServiceLives() throws {
        do {
            _ = try call("BadString")
            Issue.record("a string with NUL was sent")
        } catch let error as DBusError {
            #expect(error.name == .invalidArgs)
        }
        // Still serving after the refused reply.
        #expect(try call("Pairs", [.array(.string, [.string("k")])]) == [.stringVariantDictionary([("k", .int32(0))])])
    }

    @Test func getAndGetAllUseTheWriters() throws {
        #expect(try properties("Get", [.string(Self.interface.rawValue), .string("Count")]) == [.variant(.int64(7))])
        #expect(try properties("Get", [.string(Self.interface.rawValue), .string("Names")])
            == [.variant(.array(.string, [.string("a"), .string("b")]))])
    }

    @Test func refusedWriterFallsBackToTheGetterError() throws {
        do {
            _ = try properties("Get", [.string(Self.interface.rawValue), .string("Bad")])
            Issue.record("a string with NUL was sent")
        } catch let error as DBusError {
            #expect(error.name == .invalidArgs)
        }
        // GetAll: the writers stop at "Bad", and the getters' path answers as it always did.
        do {
            _ = try properties("GetAll", [.string(Self.interface.rawValue)])
            Issue.record("a string with NUL was sent")
        } catch let error as DBusError {
            #expect(error.name == .invalidArgs)
        }
        #expect(try properties("Get", [.string(Self.interface.rawValue), .string("Count")]) == [.variant(.int64(7))])
    }
}
