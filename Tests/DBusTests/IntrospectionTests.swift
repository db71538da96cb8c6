import DBus
import Foundation
import Testing
import TestSupport

/// Introspection generated from declarations, read by real tools.
@Suite struct IntrospectionTests {
    @Test func gdbusReadsMembersTypesAccessAndAnnotations() throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        let result = try ExternalTool.run("gdbus", [
            "introspect", "--address", bus.address, "--dest", SampleObject.name.rawValue,
            "--object-path", SampleObject.path.rawValue,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(text.contains("interface org.linnet.Sample {"))
        #expect(text.contains("Add(in  i a,"))
        #expect(text.contains("out i sum);"))
        #expect(text.contains("Seeked(x Position);"))
        #expect(text.contains("readwrite d Volume = 0.5;"))
        #expect(text.contains("@org.freedesktop.DBus.Property.EmitsChangedSignal(\"const\")"))
        #expect(text.contains("readonly s Identity = 'Sample';"))
        #expect(text.contains("@org.freedesktop.DBus.Property.EmitsChangedSignal(\"invalidates\")"))
        // gdbus prints the unescaped value: our XML escaping of <, & and " round-tripped.
        #expect(text.contains(#"@org.linnet.Note("a <sample> & "quoted"")"#))
        #expect(text.contains("interface org.freedesktop.DBus.Properties {"))
        #expect(text.contains("interface org.freedesktop.DBus.Peer {"))
        #expect(text.contains("node child {"))
        withExtendedLifetime(object) {}
    }

    @Test func parentPathsListChildNodesAndUnknownPathsFail() throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        func introspect(_ path: String) throws -> ToolResult {
            try ExternalTool.run("dbus-send", [
                "--bus=\(bus.address)", "--print-reply", "--dest=\(SampleObject.name)", path,
                "org.freedesktop.DBus.Introspectable.Introspect",
            ])
        }
        let root = try introspect("/")
        #expect(root.status == 0)
        #expect(root.stdout.contains("<node name=\"org\"/>"))
        let middle = try introspect("/org/linnet/Sample")
        #expect(middle.stdout.contains("<node name=\"Main\"/>"))
        #expect(!middle.stdout.contains("<interface name=\"org.linnet.Sample\">"))
        let missing = try introspect("/elsewhere")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"))
        withExtendedLifetime(object) {}
    }

    @Test func xmlIsWellFormedAndListsEveryDeclaredProperty() throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        let client = try DBusConnection(address: bus.address)
        let reply = try client.callBlocking(
            destination: SampleObject.name, path: SampleObject.path, interface: .introspectable, member: "Introspect")
        guard case .string(let xml)? = reply.first else {
            Issue.record("Introspect returned \(reply)")
            return
        }
        #expect(xml.hasPrefix("<!DOCTYPE node PUBLIC"))
        let names = xml.split(separator: "\n")
            .filter { $0.contains("<property ") }
            .compactMap { line in line.split(separator: "\"").dropFirst().first.map(String.init) }
        #expect(names == ["Volume", "Identity", "Tracks", "Position", "Empty", "Broken"])
        // Every opened element is closed: count openings against closings.
        for tag in ["node", "interface", "method", "signal", "property", "arg"] {
            let opened = xml.components(separatedBy: "<\(tag) ").count + xml.components(separatedBy: "<\(tag)>").count - 2
            let closed = xml.components(separatedBy: "</\(tag)>").count - 1
                + xml.split(separator: "\n").filter { $0.contains("<\(tag) ") && $0.hasSuffix("/>") }.count
            #expect(opened == closed, "<\(tag)> opened \(opened) times, closed \(closed)")
        }
        withExtendedLifetime(object) {}
    }
}
