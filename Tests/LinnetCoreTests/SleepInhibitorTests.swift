@testable import DesktopClients
import DBus
import Foundation
import LinnetCore
import Logging
import Testing
import TestSupport

/// The suspend inhibitor against a recording portal on the session bus and a recording logind
/// on a second private bus standing in for the system bus.
@Suite struct SleepInhibitorTests {
    private static let logger = Logger(label: "test.inhibitor")
    private static let delay = Duration.milliseconds(400)

    @Test func portalInhibitorIsSharedByReasonsAndOutlivesTheLastOne() async throws {
        try await withTimeout(.seconds(60), "portal inhibitor test") {
            let bus = try await offPool { try PrivateBus() }
            defer { bus.stop() }
            let portal = try await offPool { try RecordingPortalInhibitor(address: bus.address) }
            let inhibitor = try await offPool {
                SleepInhibitor(
                    session: try DBusConnection(address: bus.address), systemBusAddress: "unix:path=/nonexistent/linnet",
                releaseDelay: Self.delay, logger: Self.logger)
            }

            inhibitor.hold("playing", explanation: "Playing music")
            try await waitUntil(.seconds(20), "the portal inhibitor") { portal.active.count == 1 }
            let first = try #require(portal.inhibitions.first)
            #expect(first.flags == 4)
            #expect(first.reason == "Playing music")
            #expect(first.window == "")

            inhibitor.hold("alarm", explanation: "An alarm is due")
            inhibitor.release("playing")
            let lastRelease = ContinuousClock.now
            inhibitor.release("alarm")
            try await waitUntil(.seconds(20), "the portal inhibitor to be closed") { portal.active.isEmpty }
            let closed = try #require(portal.inhibitions.first?.closedAt)
            #expect(closed - lastRelease >= Self.delay)
            #expect(portal.inhibitions.count == 1)
            #expect(!inhibitor.isHeld)
        }
    }

    @Test func pausingAndPlayingWithinTheDelayKeepsOneInhibitor() async throws {
        try await withTimeout(.seconds(60), "inhibitor flapping test") {
            let bus = try await offPool { try PrivateBus() }
            defer { bus.stop() }
            let portal = try await offPool { try RecordingPortalInhibitor(address: bus.address) }
            let inhibitor = try await offPool {
                SleepInhibitor(
                    session: try DBusConnection(address: bus.address), systemBusAddress: "unix:path=/nonexistent/linnet",
                releaseDelay: .seconds(5), logger: Self.logger)
            }
            inhibitor.hold("playing", explanation: "Playing music")
            try await waitUntil(.seconds(20), "the portal inhibitor") { portal.active.count == 1 }
            for _ in 0..<5 {
                inhibitor.release("playing")
                inhibitor.hold("playing", explanation: "Playing music")
            }
            // Round trip through a second inhibitor on the same portal: everything the first
            // asked before it has been seen by then.
            let probe = try await offPool {
                SleepInhibitor(
                    session: try DBusConnection(address: bus.address), systemBusAddress: "unix:path=/nonexistent/linnet",
                releaseDelay: .zero, logger: Self.logger)
            }
            probe.hold("probe", explanation: "probe")
            try await waitUntil(.seconds(20), "the probe") { portal.inhibitions.count == 2 }
            #expect(portal.inhibitions.first?.closedAt == nil)
        }
    }

    @Test func logindOnTheSystemBusWhenThereIsNoPortal() async throws {
        try await withTimeout(.seconds(60), "logind inhibitor test") {
            let session = try await offPool { try PrivateBus() }
            let system = try await offPool { try PrivateBus() }
            defer {
                session.stop()
                system.stop()
            }
            let logind = try await offPool { try RecordingLogind(address: system.address) }
            let inhibitor = try await offPool {
                SleepInhibitor(
                    session: try DBusConnection(address: session.address), systemBusAddress: system.address,
                releaseDelay: Self.delay, logger: Self.logger)
            }
            inhibitor.hold("playing", explanation: "Playing music")
            try await waitUntil(.seconds(20), "the logind lock") { logind.active.count == 1 }
            let lock = try #require(logind.locks.first)
            #expect(lock.what == "sleep" && lock.who == "Linnet" && lock.why == "Playing music" && lock.mode == "block")

            let released = ContinuousClock.now
            inhibitor.release("playing")
            try await waitUntil(.seconds(20), "the descriptor to be closed") { logind.active.isEmpty }
            let closedAt = try #require(logind.locks.first?.releasedAt)
            #expect(closedAt - released >= Self.delay)

            // Held again later: a new lock.
            inhibitor.hold("alarm", explanation: "An alarm is due")
            try await waitUntil(.seconds(20), "a second lock") { logind.active.count == 1 && logind.locks.count == 2 }
        }
    }

    @Test func withNeitherServiceItCarriesOn() async throws {
        try await withTimeout(.seconds(60), "inhibitor without services") {
            let bus = try await offPool { try PrivateBus() }
            defer { bus.stop() }
            let inhibitor = try await offPool {
                SleepInhibitor(
                    session: try DBusConnection(address: bus.address), systemBusAddress: "unix:path=/nonexistent/linnet",
                releaseDelay: .milliseconds(50), timeout: .seconds(1), logger: Self.logger)
            }
            inhibitor.hold("playing", explanation: "Playing music")
            try await waitUntil(.seconds(20), "the attempt to finish") { inhibitor.isHeld }
            inhibitor.release("playing")
            try await waitUntil(.seconds(20), "the attempt to be dropped") { !inhibitor.isHeld }
        }
    }
}
