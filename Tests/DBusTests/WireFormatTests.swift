import DBus
import Testing
import TestSupport

/// Proves our wire format against independent implementations: gdbus (GLib's GDBus) and
/// dbus-send marshal values that our service decodes, and gdbus decodes what we marshal.
@Suite struct WireFormatTests {
    /// One value as gdbus writes it, as we must decode it, and as gdbus prints our echo of it.
    struct Case: Sendable {
        let type: DBusType
        let gdbusInput: String
        let expected: DBusValue
        let gdbusOutput: String
    }

    static let cases: [Case] = [
        Case(type: .byte, gdbusInput: "255", expected: .byte(255), gdbusOutput: "(byte 0xff,)"),
        Case(type: .byte, gdbusInput: "0", expected: .byte(0), gdbusOutput: "(byte 0x00,)"),
        Case(type: .boolean, gdbusInput: "true", expected: .boolean(true), gdbusOutput: "(true,)"),
        Case(type: .boolean, gdbusInput: "false", expected: .boolean(false), gdbusOutput: "(false,)"),
        Case(type: .int16, gdbusInput: "-32768", expected: .int16(.min), gdbusOutput: "(int16 -32768,)"),
        Case(type: .int16, gdbusInput: "32767", expected: .int16(.max), gdbusOutput: "(int16 32767,)"),
        Case(type: .uint16, gdbusInput: "65535", expected: .uint16(.max), gdbusOutput: "(uint16 65535,)"),
        Case(type: .int32, gdbusInput: "-2147483648", expected: .int32(.min), gdbusOutput: "(-2147483648,)"),
        Case(type: .int32, gdbusInput: "2147483647", expected: .int32(.max), gdbusOutput: "(2147483647,)"),
        Case(type: .uint32, gdbusInput: "4294967295", expected: .uint32(.max), gdbusOutput: "(uint32 4294967295,)"),
        Case(type: .int64, gdbusInput: "-9223372036854775808", expected: .int64(.min),
             gdbusOutput: "(int64 -9223372036854775808,)"),
        Case(type: .int64, gdbusInput: "9223372036854775807", expected: .int64(.max),
             gdbusOutput: "(int64 9223372036854775807,)"),
        Case(type: .uint64, gdbusInput: "18446744073709551615", expected: .uint64(.max),
             gdbusOutput: "(uint64 18446744073709551615,)"),
        Case(type: .double, gdbusInput: "-1.5e-10", expected: .double(-1.5e-10), gdbusOutput: "(-1.5e-10,)"),
        Case(type: .string, gdbusInput: "'héllo ✓ 日本 🎵'", expected: .string("héllo ✓ 日本 🎵"),
             gdbusOutput: "('héllo ✓ 日本 🎵',)"),
        Case(type: .string, gdbusInput: "''", expected: .string(""), gdbusOutput: "('',)"),
        Case(type: .objectPath, gdbusInput: "'/org/mpris/MediaPlayer2'", expected: .objectPath("/org/mpris/MediaPlayer2"),
             gdbusOutput: "(objectpath '/org/mpris/MediaPlayer2',)"),
        Case(type: .signature, gdbusInput: "'a{sv}(oss)'", expected: .signature("a{sv}(oss)"),
             gdbusOutput: "(signature 'a{sv}(oss)',)"),
        Case(type: .array(.string), gdbusInput: "@as []", expected: .array(.string, []), gdbusOutput: "(@as [],)"),
        Case(type: .array(.string), gdbusInput: "['a', 'b']", expected: .array(.string, [.string("a"), .string("b")]),
             gdbusOutput: "(['a', 'b'],)"),
        Case(type: .dictionary(key: .string, value: .variant), gdbusInput: "@a{sv} {}",
             expected: .dictionary(key: .string, value: .variant, []), gdbusOutput: "(@a{sv} {},)"),
        Case(type: .dictionary(key: .string, value: .variant),
             gdbusInput: "{'n': <int32 1>, 'l': <@as []>}",
             expected: .stringVariantDictionary([("n", .int32(1)), ("l", .array(.string, []))]),
             gdbusOutput: "({'n': <1>, 'l': <@as []>},)"),
        Case(type: .dictionary(key: .uint32, value: .array(.objectPath)), gdbusInput: "{7: [objectpath '/a']}",
             expected: .dictionary(key: .uint32, value: .array(.objectPath),
                                   [DBusDictionaryEntry(key: .uint32(7), value: .array(.objectPath, [.objectPath("/a")]))]),
             gdbusOutput: "({uint32 7: [objectpath '/a']},)"),
        Case(type: .structure([.int32, .string, .structure([.boolean, .objectPath])]),
             gdbusInput: "(1, 'x', (true, objectpath '/p'))",
             expected: .structure([.int32(1), .string("x"), .structure([.boolean(true), .objectPath("/p")])]),
             gdbusOutput: "((1, 'x', (true, objectpath '/p')),)"),
        Case(type: .variant, gdbusInput: "<<<'deep'>>>", expected: .variant(.variant(.variant(.string("deep")))),
             gdbusOutput: "(<<<'deep'>>>,)"),
        Case(type: .array(.array(.byte)), gdbusInput: "[[byte 1, 2], []]",
             expected: .array(.array(.byte), [.array(.byte, [.byte(1), .byte(2)]), .array(.byte, [])]),
             gdbusOutput: "([[byte 0x01, 0x02], []],)"),
        Case(type: .array(.variant), gdbusInput: "[<uint64 5>, <('a', 2.5)>]",
             expected: .array(.variant, [.variant(.uint64(5)), .variant(.structure([.string("a"), .double(2.5)]))]),
             gdbusOutput: "([<uint64 5>, <('a', 2.5)>],)"),
    ]

    @Test func gdbusValuesDecodeExactlyAndEchoBackIdentically() throws {
        let bus = try PrivateBus()
        let service = try EchoService(bus: bus, types: Self.cases.map(\.type))
        for (index, testCase) in Self.cases.enumerated() {
            let result = try ExternalTool.run("gdbus", [
                "call", "--address", bus.address, "--dest", EchoService.name.rawValue,
                "--object-path", EchoService.path.rawValue,
                "--method", "\(EchoService.interface).Case\(index)", "--", testCase.gdbusInput,
            ])
            #expect(result.status == 0, "case \(index) \(testCase.type): \(result.stderr)")
            #expect(result.output == testCase.gdbusOutput, "case \(index) \(testCase.type)")
            #expect(service.received.values.last == testCase.expected, "case \(index) \(testCase.type)")
        }
        #expect(service.received.values.count == Self.cases.count)
    }

    @Test func valuesBuiltInSwiftAreReadCorrectlyByGdbus() throws {
        let produced: [(DBusValue, String)] = [
            ([String]().dbusValue, "(@as [],)"),
            ([String: DBusVariant]().dbusValue, "(@a{sv} {},)"),
            ([Int64.min, 0, Int64.max].dbusValue, "([int64 -9223372036854775808, 0, 9223372036854775807],)"),
            (["ключ": DBusVariant(DBusValue.variant(.array(.int32, [])))].dbusValue, "({'ключ': <<@ai []>>},)"),
            (DBusValue.structure([.objectPath("/"), .boolean(true), .signature("")]), "((objectpath '/', true, signature ''),)"),
            ([UInt8]([0, 127, 255]).dbusValue, "([byte 0x00, 0x7f, 0xff],)"),
            (DBusValue.double(.infinity), "(inf,)"),
        ]
        let bus = try PrivateBus()
        let service = try EchoService(bus: bus, types: [], produces: produced.map(\.0))
        for (index, (value, expected)) in produced.enumerated() {
            let result = try ExternalTool.run("gdbus", [
                "call", "--address", bus.address, "--dest", EchoService.name.rawValue,
                "--object-path", EchoService.path.rawValue, "--method", "\(EchoService.interface).Produce\(index)",
            ])
            #expect(result.status == 0, "produce \(index) \(value.type): \(result.stderr)")
            #expect(result.output == expected, "produce \(index) \(value.type)")
        }
        withExtendedLifetime(service) {}
    }

    @Test func dbusSendValuesDecodeExactly() throws {
        let inputs: [(DBusType, String, DBusValue)] = [
            (.int16, "int16:-5", .int16(-5)),
            (.uint64, "uint64:18446744073709551615", .uint64(.max)),
            (.boolean, "boolean:false", .boolean(false)),
            (.double, "double:2.5", .double(2.5)),
            (.objectPath, "objpath:/x/y", .objectPath("/x/y")),
            (.array(.string), "array:string:a,b,c", .array(.string, [.string("a"), .string("b"), .string("c")])),
            (.dictionary(key: .string, value: .int32), "dict:string:int32:a,1,b,2",
             .dictionary(key: .string, value: .int32, [
                DBusDictionaryEntry(key: .string("a"), value: .int32(1)),
                DBusDictionaryEntry(key: .string("b"), value: .int32(2)),
             ])),
            (.variant, "variant:int32:7", .variant(.int32(7))),
        ]
        let bus = try PrivateBus()
        let service = try EchoService(bus: bus, types: inputs.map(\.0))
        for (index, (type, argument, expected)) in inputs.enumerated() {
            let result = try ExternalTool.run("dbus-send", [
                "--bus=\(bus.address)", "--print-reply", "--dest=\(EchoService.name)",
                EchoService.path.rawValue, "\(EchoService.interface).Case\(index)", argument,
            ])
            #expect(result.status == 0, "dbus-send \(type): \(result.stderr)")
            #expect(service.received.values.last == expected, "dbus-send \(type)")
        }
    }
}
