import DBus
import EventLoop
import Foundation
import MPRIS
import Testing
import TestSupport

/// How the player appears on the bus: names, root properties, and introspection matching dbus/.
@Suite struct BusPresenceTests {
    @Test func takenNameFallsBackToAnInstanceSuffix() async throws {
        let first = try MPRISFixture(name: "dup")
        let second = TestPlayer()
        let server = second.makeServer(connection: try DBusConnection(address: first.bus.address))
        let name = try server.start(name: "dup")
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(first.busName == "org.mpris.MediaPlayer2.dup")
        #expect(name.rawValue == "org.mpris.MediaPlayer2.dup.instance\(pid)")
        let names = try await first.client.listNames().map(\.rawValue)
        #expect(names.contains("org.mpris.MediaPlayer2.dup.instance\(pid)"))
        server.stop()
        try await waitUntil { try await !first.client.nameHasOwner(name) }
    }

    /// Panels query the moment the name appears, so everything must already be there.
    @Test func everythingIsExportedBeforeTheNameAppears() async throws {
        let bus = try PrivateBus()
        let watcherLoop = EventLoop(name: "watcher")
        defer { watcherLoop.stop() }
        let watcher = try DBusConnection(address: bus.address, loop: watcherLoop)
        let identities = Recorder<String>()
        let subscription = try watcher.watchNameOwners("org.mpris.MediaPlayer2.early") { change in
            guard let owner = change.newOwner else { return }
            // Ask at once, on the watcher's loop thread, before anything else happens.
            let reply = try? watcher.callBlocking(
                destination: owner, path: MPRISNames.objectPath, interface: .properties, member: "GetAll",
                arguments: [.string(MPRISNames.player.rawValue)])
            let root = try? watcher.callBlocking(
                destination: owner, path: MPRISNames.objectPath, interface: .properties, member: "Get",
                arguments: [.string(MPRISNames.root.rawValue), .string("Identity")])
            let title = reply?.first?["Metadata"]?["xesam:title"]
            identities.record("\(root?.first?.unwrapped ?? .string("none")) \(title ?? .string("none"))")
        }
        let player = TestPlayer()
        let server = player.makeServer(connection: try DBusConnection(address: bus.address))
        try server.start(name: "early")
        try await waitUntil { identities.values.count == 1 }
        #expect(identities.values == [#"string("Test Player") string("Song 1")"#])
        subscription.cancel()
    }

    @Test func rootPropertiesAndMethods() async throws {
        let fixture = try MPRISFixture()
        let root = fixture.proxy(MPRISNames.root)
        let all = try await root.allProperties()
        #expect(all["Identity"] == .string("Test Player"))
        #expect(all["DesktopEntry"] == .string("test-player"))
        #expect(all["HasTrackList"] == .boolean(true))
        #expect(all["CanQuit"] == .boolean(true))
        #expect(all["CanRaise"] == .boolean(false))
        #expect(all["SupportedUriSchemes"] == .array(.string, [.string("file"), .string("http")]))
        #expect(all["SupportedMimeTypes"] == .array(.string, [.string("audio/ogg")]))
        try await root.call("Quit")
        do {
            try await root.call("Raise")
            Issue.record("Raise succeeded with CanRaise false")
        } catch { #expect(error.name == .notSupported) }
        #expect(fixture.player.calls.values == ["Quit"])
    }

    @Test func introspectionMatchesTheInterfaceFilesMemberForMember() throws {
        let fixture = try MPRISFixture()
        let result = try ExternalTool.run("gdbus", [
            "introspect", "--xml", "--address", fixture.bus.address, "--dest", fixture.busName.rawValue,
            "--object-path", MPRISNames.objectPath.rawValue,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let served = IntrospectionModel(xml: result.stdout)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus")
        for name in ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList",
                     "org.mpris.MediaPlayer2.Playlists"] {
            let xml = try String(contentsOf: repository.appendingPathComponent("\(name).xml"), encoding: .utf8)
            let expected = try #require(IntrospectionModel(xml: xml).interfaces[name], "\(name).xml has no interface")
            let actual = try #require(served.interfaces[name], "\(name) is not served")
            #expect(actual.members == expected.members, "\(name) members")
            #expect(actual.properties == expected.properties, "\(name) properties")
        }
    }
}
