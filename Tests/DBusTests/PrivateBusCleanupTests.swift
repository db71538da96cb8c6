import Foundation
import Testing
import TestSupport

/// A test's bus leaves nothing in /tmp: the daemon is killed with SIGKILL, so its socket file
/// is removed by the harness, not by the daemon.
@Suite struct PrivateBusCleanupTests {
    @Test func stoppingTheBusRemovesItsSocketFile() throws {
        let bus = try PrivateBus()
        let paths = PrivateBus.socketPaths(in: bus.address)
        try #require(paths.count == 1, "session.conf listens on one unix:tmpdir socket: \(bus.address)")
        #expect(FileManager.default.fileExists(atPath: paths[0]))
        bus.stop()
        #expect(!FileManager.default.fileExists(atPath: paths[0]))
    }

    @Test func socketPathsReadsEveryUnixPathAndSkipsAbstractSockets() {
        let address = "unix:path=/tmp/dbus-a%2cb,guid=1;unix:abstract=/tmp/dbus-x,guid=2;tcp:host=localhost,port=1"
        #expect(PrivateBus.socketPaths(in: address) == ["/tmp/dbus-a,b"])
    }
}
