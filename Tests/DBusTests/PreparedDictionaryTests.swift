import DBus
import Testing

/// A prepared `a{sv}` is written as the same bytes as its values written one by one, and a
/// string libdbus would refuse is caught when the map is built.
@Suite struct PreparedDictionaryTests {
    /// One entry of every kind, with non-ASCII, empty and multi-string values.
    private static let entries: [(String, DBusPreparedDictionary.Value, DBusValue)] = [
        ("s", .string("Ünïcødé ♫ 東京"), .string("Ünïcødé ♫ 東京")),
        ("empty", .string(""), .string("")),
        ("o", .objectPath("/org/example/track"), .objectPath("/org/example/track")),
        ("numbered", .numberedObjectPath(parent: "/org/example/track", number: 1_234_567),
         .objectPath("/org/example/track/1234567")),
        ("zero", .numberedObjectPath(parent: "/org/example", number: 0), .objectPath("/org/example/0")),
        ("below root", .numberedObjectPath(parent: "/", number: UInt64.max), .objectPath("/18446744073709551615")),
        ("i", .int32(-7), .int32(-7)),
        ("x", .int64(.min), .int64(.min)),
        ("d", .double(0.25), .double(0.25)),
        ("as", .strings(["a", "", "ß"]), .array(.string, [.string("a"), .string(""), .string("ß")])),
        ("no strings", .strings([]), .array(.string, [])),
        ("other", .other(.array(.int32, [.int32(1), .int32(2)])), .array(.int32, [.int32(1), .int32(2)])),
        ("clé ü", .int32(1), .int32(1)),
    ]

    @Test func everyKindReadsBackAsTheValuesWrittenOneByOne() throws {
        let prepared = DBusPreparedDictionary { add in
            for (key, value, _) in Self.entries { add(key, value) }
        }
        #expect(prepared.problem == nil)
        let expected = DBusValue.stringVariantDictionary(Self.entries.map { ($0.0, $0.2) })
        let written = try DBusMessageWriter.scratchBodyValues { $0.append(prepared) }
        let direct = try DBusMessageWriter.scratchBodyValues { $0.append(expected) }
        #expect(written == direct)
        #expect(written == [expected])
        // Written again (as a cached map is), it is the same.
        #expect(try DBusMessageWriter.scratchBodyValues { $0.append(prepared) } == written)
    }

    @Test func anEmptyMapIsAnEmptyArray() throws {
        let prepared = DBusPreparedDictionary { _ in }
        #expect(try DBusMessageWriter.scratchBodyValues { $0.append(prepared) } == [.stringVariantDictionary([])])
    }

    @Test(arguments: [
        DBusPreparedDictionary.Value.string("a\u{0}b"),
        .strings(["fine", "not\u{0}fine"]),
        .other(.array(.string, [.string("x\u{0}")])),
    ])
    func aValueWithNULIsAProblemAndStopsTheWriter(_ value: DBusPreparedDictionary.Value) {
        let prepared = DBusPreparedDictionary { add in
            add("before", .string("ok"))
            add("bad", value)
        }
        #expect(prepared.problem?.name == .invalidArgs)
        let problem = DBusMessageWriter.writeScratchBody { writer in
            writer.appendArray(of: .stringVariantDictionary) { $0.append(prepared) }
        }
        #expect(problem?.name == .invalidArgs)
    }

    @Test func aKeyWithNULIsAProblem() {
        let prepared = DBusPreparedDictionary { add in add("k\u{0}ey", .int32(1)) }
        #expect(prepared.problem?.name == .invalidArgs)
    }
}
