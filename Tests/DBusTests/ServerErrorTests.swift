import DBus
import Testing
import TestSupport

/// Each server-side error, triggered from outside with dbus-send and checked by name.
@Suite struct ServerErrorTests {
    let bus: PrivateBus
    let object: SampleObject

    init() throws {
        bus = try PrivateBus()
        object = try SampleObject(bus: bus)
    }

    /// Runs dbus-send against the sample and returns (exit status, "Error <name>" or reply text).
    func send(_ path: String, _ method: String, _ arguments: [String] = []) throws -> ToolResult {
        try ExternalTool.run("dbus-send", [
            "--bus=\(bus.address)", "--print-reply", "--reply-timeout=5000",
            "--dest=\(SampleObject.name)", path, method,
        ] + arguments)
    }

    func expectError(_ result: ToolResult, _ name: ErrorName, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status != 0, sourceLocation: sourceLocation)
        #expect(result.stderr.contains("Error \(name):"), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func unknownObject() throws {
        expectError(try send("/org/linnet/Nowhere", "org.linnet.Sample.Add", ["int32:1", "int32:2"]), .unknownObject)
    }

    @Test func unknownInterface() throws {
        expectError(try send(SampleObject.path.rawValue, "org.linnet.Nope.Add", ["int32:1", "int32:2"]), .unknownInterface)
    }

    @Test func unknownMethod() throws {
        expectError(try send(SampleObject.path.rawValue, "org.linnet.Sample.Subtract"), .unknownMethod)
    }

    @Test func wrongSignatureIsInvalidArgs() throws {
        expectError(try send(SampleObject.path.rawValue, "org.linnet.Sample.Add", ["string:1", "int32:2"]), .invalidArgs)
        expectError(try send(SampleObject.path.rawValue, "org.linnet.Sample.Add", ["int32:1"]), .invalidArgs)
    }

    @Test func validCallAnswers() throws {
        let result = try send(SampleObject.path.rawValue, "org.linnet.Sample.Add", ["int32:40", "int32:2"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("int32 42"))
    }

    @Test func callWithoutInterfaceFindsTheMethod() throws {
        // dbus-send insists on an interface, so this uses our client, which may omit it.
        let client = try DBusConnection(address: bus.address)
        let reply = try client.callBlocking(
            destination: SampleObject.name, path: SampleObject.path, interface: nil, member: "Add",
            arguments: [.int32(1), .int32(2)])
        #expect(reply == [.int32(3)])
    }

    @Test func handlerErrorKeepsItsName() throws {
        let result = try send(SampleObject.path.rawValue, "org.linnet.Sample.Fail")
        expectError(result, SampleObject.customError)
        #expect(result.stderr.contains("asked to fail"))
    }

    @Test func replyOfTheWrongTypeBecomesFailedNotACrash() throws {
        expectError(try send(SampleObject.path.rawValue, "org.linnet.Sample.WrongReply"), .failed)
        #expect(try send(SampleObject.path.rawValue, "org.linnet.Sample.Add", ["int32:1", "int32:1"]).status == 0)
    }

    @Test func droppedDeferredReplyAnswersFailed() throws {
        expectError(try send(SampleObject.path.rawValue, "org.linnet.Sample.Dropped"), .failed)
    }

    @Test func unknownProperty() throws {
        expectError(try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.Get",
                             ["string:org.linnet.Sample", "string:Nope"]), .unknownProperty)
    }

    @Test func propertyOfUnknownInterface() throws {
        expectError(try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.GetAll",
                             ["string:org.linnet.Nope"]), .unknownInterface)
    }

    @Test func readOnlyProperty() throws {
        expectError(try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.Set",
                             ["string:org.linnet.Sample", "string:Identity", "variant:string:x"]), .propertyReadOnly)
    }

    @Test func setWithWrongVariantTypeIsInvalidArgs() throws {
        expectError(try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.Set",
                             ["string:org.linnet.Sample", "string:Volume", "variant:string:loud"]), .invalidArgs)
        #expect(object.currentVolume == 0.5)
    }

    @Test func setterValidationErrorReachesTheCaller() throws {
        expectError(try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.Set",
                             ["string:org.linnet.Sample", "string:Volume", "variant:double:-1"]), .invalidArgs)
        let ok = try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.Set",
                          ["string:org.linnet.Sample", "string:Volume", "variant:double:0.25"])
        #expect(ok.status == 0)
        #expect(object.currentVolume == 0.25)
    }

    @Test func propertiesWrongSignature() throws {
        expectError(try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.Get",
                             ["string:org.linnet.Sample"]), .invalidArgs)
    }

    @Test func getAllSkipsNothingValidAndReportsTypes() throws {
        let result = try ExternalTool.run("gdbus", [
            "call", "--address", bus.address, "--dest", SampleObject.name.rawValue, "--object-path",
            SampleObject.path.rawValue, "--method", "org.freedesktop.DBus.Properties.GetAll", "org.linnet.Sample",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == "({'Volume': <0.5>, 'Identity': <'Sample'>, 'Tracks': <[objectpath '/t/1']>, 'Position': <int64 42>, 'Empty': <@as []>},)")
    }

    @Test func brokenGetterIsAnErrorForGet() throws {
        expectError(try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Properties.Get",
                             ["string:org.linnet.Sample", "string:Broken"]), .failed)
    }

    @Test func peerInterfaceAnswersOnEveryPath() throws {
        for path in [SampleObject.path.rawValue, "/", "/not/exported"] {
            let ping = try send(path, "org.freedesktop.DBus.Peer.Ping")
            #expect(ping.status == 0, "Ping on \(path): \(ping.stderr)")
        }
        let machine = try send(SampleObject.path.rawValue, "org.freedesktop.DBus.Peer.GetMachineId")
        #expect(machine.status == 0)
        #expect(machine.stdout.contains("string \""))
    }
}
