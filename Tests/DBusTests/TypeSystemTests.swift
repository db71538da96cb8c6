import DBus
import Testing

/// The Swift side of the type system: signatures, names, typed conversions, validation.
@Suite struct TypeSystemTests {
    @Test(arguments: ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h", "v", "as", "a{sv}",
                      "a{oa{sv}}", "(b(oss))", "a(oss)", "aay", "a{s(ii)}"])
    func signaturesRoundTrip(_ text: String) throws {
        let type = try DBusType(parsing: text)
        #expect(type.signature == text)
    }

    @Test(arguments: ["", "a", "(", "()", "a{vs}", "{sv}", "z", "ii", "a{s}", "(i"])
    func invalidSingleTypesAreRefused(_ text: String) {
        #expect(throws: DBusError.self) { try DBusType(parsing: text) }
    }

    @Test func signaturesListTypes() throws {
        let signature = try DBusSignature(validating: "sa{sv}as")
        #expect(signature.types == [.string, .dictionary(key: .string, value: .variant), .array(.string)])
        #expect(DBusSignature.empty.types.isEmpty)
    }

    @Test func namesAreValidated() {
        #expect(ObjectPath(rawValue: "/org/mpris/MediaPlayer2") != nil)
        #expect(ObjectPath(rawValue: "/trailing/") == nil)
        #expect(ObjectPath(rawValue: "relative") == nil)
        #expect(ObjectPath(rawValue: "/a\0b") == nil)
        #expect(BusName(rawValue: "org.mpris.MediaPlayer2.linnet") != nil)
        #expect(BusName(rawValue: ":1.42")?.isUnique == true)
        #expect(BusName(rawValue: "nodots") == nil)
        #expect(InterfaceName(rawValue: "org.mpris.MediaPlayer2.Player") != nil)
        #expect(InterfaceName(rawValue: "org.9bad") == nil)
        #expect(MemberName(rawValue: "PlayPause") != nil)
        #expect(MemberName(rawValue: "Play.Pause") == nil)
        #expect(ErrorName(rawValue: "org.freedesktop.DBus.Error.Failed") != nil)
        #expect(throws: DBusError.self) { try ObjectPath(validating: "//") }
    }

    @Test func pathRelations() {
        let path: ObjectPath = "/org/mpris"
        #expect(ObjectPath("/org/mpris/MediaPlayer2").isDescendant(of: path))
        #expect(!ObjectPath("/org/mprisX").isDescendant(of: path))
        #expect(path.appending("MediaPlayer2") == "/org/mpris/MediaPlayer2")
        #expect(ObjectPath.root.appending("a") == "/a")
        #expect(path.appending("bad-name") == nil)
    }

    @Test func typedValuesKeepTheirSignatureWhenEmpty() throws {
        #expect([String]().dbusValue.type.signature == "as")
        #expect([String: DBusVariant]().dbusValue.type.signature == "a{sv}")
        #expect([ObjectPath: [Int32]]().dbusValue.type.signature == "a{oai}")
        let decoded = try [String: DBusVariant](dbusValue: DBusValue.stringVariantDictionary([("a", .int64(5))]))
        #expect(decoded["a"]?.value == .int64(5))
        #expect(throws: DBusError.self) { try [String](dbusValue: .array(.int32, [])) }
        #expect(throws: DBusError.self) { try Int64(dbusValue: .int32(1)) }
    }

    @Test func validationRejectsMalformedValues() {
        #expect(throws: DBusError.self) { try DBusValue.array(.string, [.int32(1)]).validate() }
        #expect(throws: DBusError.self) { try DBusValue.structure([]).validate() }
        #expect(throws: DBusError.self) {
            try DBusValue.dictionary(key: .variant, value: .string, []).validate()
        }
        #expect(throws: DBusError.self) { try DBusValue.string("a\0b").validate() }
        var deep = DBusType.int32
        for _ in 0..<33 { deep = .array(deep) }
        #expect(throws: DBusError.self) { try DBusValue.array(deep, []).validate() }
        #expect(throws: Never.self) { try DBusValue.stringVariantDictionary([("k", .variant(.string("ok")))]).validate() }
    }

    /// Regression (found by the bus fuzzer): an array nested 33 deep passed validation because
    /// only its element type was measured, and the bus daemon then disconnected the sender.
    @Test func arrayNestingIsMeasuredIncludingTheArrayItself() {
        func nested(_ depth: Int) -> DBusValue {
            var value = DBusValue.array(.int32, [])
            for _ in 1..<depth { value = .array(value.type, [value]) }
            return value
        }
        #expect(nested(32).type.signature.filter { $0 == "a" }.count == 32)
        #expect(throws: Never.self) { try nested(32).validate() }
        #expect(throws: DBusError.self) { try nested(33).validate() }
    }

    @Test func dictionaryLookupUnwrapsVariants() {
        let metadata = DBusValue.stringVariantDictionary([("xesam:title", .string("Song"))])
        #expect(metadata["xesam:title"] == .string("Song"))
        #expect(metadata["missing"] == nil)
    }
}
