import DBus
import Foundation
import MPRIS
import Testing
import TestSupport

/// linnet serves only on its user's own session bus, checked explicitly rather than left to
/// the system bus's policy (issue 16).
@Suite struct SessionBusCheckTests {
    @Test(.timeLimit(.minutes(1)))
    func aSessionAddressNamingTheSystemBusIsRefused() async throws {
        let world = try LinnetWorld()
        let track = try await world.makeTrack("system.ogg", title: "System", seconds: 5)
        // The private bus stands in for the system bus: both addresses name it.
        world.extraEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = world.bus.address
        try await world.start(["--no-resume", track], waitForName: false)
        #expect(try await world.waitForExit() == 69)
        #expect(world.log.contains("DBUS_SESSION_BUS_ADDRESS names the system bus"), "\(world.log.suffix(1000))")
        #expect(try await !world.client.nameHasOwner(LinnetWorld.playerName))
    }

    /// Runs a bus as `nobody`, which needs root (the suite's machines run it as root).
    @Test(.timeLimit(.minutes(1)), .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aBusRunByAnotherUserIsRefused() async throws {
        let foreign = try PrivateBus(
            configuration: "session-any-user.conf",
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        defer { foreign.stop() }
        let world = try LinnetWorld()
        let track = try await world.makeTrack("foreign.ogg", title: "Foreign", seconds: 5)
        world.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = foreign.address
        try await world.start(["--no-resume", track], waitForName: false)
        #expect(try await world.waitForExit() == 69)
        #expect(world.log.contains("the session bus is run by user 65534, not by this user (0)"), "\(world.log.suffix(1000))")
        // The same bus is fine for a client: it is only linnet that will not serve there.
        let client = try DBusConnection(address: foreign.address)
        #expect(try await !client.nameHasOwner(LinnetWorld.playerName))
    }
}
