import DBus
import DesktopClients
import Logging
import Testing
import TestSupport

/// The screen watcher against a test-owned screen saver on a private session bus and a fake
/// logind on a second private bus standing in for the system bus.
@Suite struct ScreenActivityWatcherTests {
    private static let logger = Logger(label: "test.screen")

    @Test func withoutAScreenSaverLogindsIdleAndLockedHintsTurnTheScreenOff() async throws {
        try await withTimeout(.seconds(60), "logind screen test") {
            let session = try await offPool { try PrivateBus() }
            let system = try await offPool { try PrivateBus() }
            defer { session.stop(); system.stop() }
            let logind = try await offPool { try FakeLogindSession(address: system.address) }
            let heard = Recorder<Bool>()
            let watcher = try await offPool {
                let watcher = ScreenActivityWatcher(
                    session: try DBusConnection(address: session.address), systemBusAddress: system.address, logger: Self.logger)
                watcher.start { heard.record($0) }
                return watcher
            }
            defer { watcher.stop() }
            // Subscribed once the watcher has read the hints: a first change is then heard.
            try await waitUntil(.seconds(20), "logind followed") {
                try logind.setIdle(true)
                try await Task.sleep(for: .milliseconds(50))
                return heard.values == [false]
            }
            try logind.setLocked(true)
            try logind.setIdle(false)
            // Still locked: off until both hints are clear.
            try logind.setLocked(false)
            try await waitUntil(.seconds(20), "the screen back on") { heard.values == [false, true] }
            #expect(watcher.isScreenOn)
        }
    }

    @Test func aScreenSaverThatAnswersOutranksLogindAndItsSignalsAreFollowed() async throws {
        try await withTimeout(.seconds(60), "screen saver test") {
            let session = try await offPool { try PrivateBus() }
            let system = try await offPool { try PrivateBus() }
            defer { session.stop(); system.stop() }
            let logind = try await offPool { try FakeLogindSession(address: system.address) }
            try logind.setIdle(true)
            let saver = try await offPool { try FakeScreenSaver(address: session.address) }
            let heard = Recorder<Bool>()
            let connection = try await offPool { try DBusConnection(address: session.address) }
            let watcher = try await offPool {
                let watcher = ScreenActivityWatcher(session: connection, systemBusAddress: system.address, logger: Self.logger)
                watcher.start { heard.record($0) }
                return watcher
            }
            defer { watcher.stop() }
            let me = try #require(connection.uniqueName)
            try await saver.setActive(true, confirmingWith: me)
            try await waitUntil(.seconds(20), "the screen off") { heard.values == [false] }
            try await saver.setActive(false, confirmingWith: me)
            try await waitUntil(.seconds(20), "the screen on") { heard.values == [false, true] }
            // logind said idle all along; the screen saver answered, so it decides.
            #expect(watcher.isScreenOn)
        }
    }
}
