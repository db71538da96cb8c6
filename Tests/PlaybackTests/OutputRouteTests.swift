import EventLoop
import Foundation
@testable import Playback
import Synchronization
import Testing
import TestSupport

/// The engine following its own stream on a real (private) PulseAudio: the route it reports, the
/// headphone volume cap against the user's mixer, and the monitor failing soft.
@Suite struct OutputRouteTests {
    static let headphone = "device.form_factor=headphone"

    /// The server, an engine playing a long tone to `device` (nil: the server's default, the
    /// last sink), its event log and its stream.
    private static func playing(
        _ media: MediaFactory, sinks: [String], headphones: [String], on device: String?, cap: Double? = nil
    ) async throws -> (SoundServer, GStreamerEngine, EventLog, SoundServer.SinkInput) {
        let directory = media.directory.path
        let properties = Dictionary(uniqueKeysWithValues: headphones.map { ($0, Self.headphone) })
        let server = try await offPool { try SoundServer(in: directory, sinks: sinks, properties: properties) }
        let tone = try media.wav("tone.wav", frames: 44_100 * 30) { frame in
            let value = Int16(3_000 * sin(Double(frame) * 2 * .pi * 440 / 44_100))
            return (value, value)
        }
        let engine = GStreamerEngine(
            output: .description("pulsesink server=\(server.address)" + (device.map { " device=\($0)" } ?? "")),
            headphoneVolumeCap: cap)
        let log = EventLog(engine.events)
        engine.load(tone)
        engine.play()
        try await log.wait(for: "playing") { $0.isState(.playing) }
        let stream = try await server.waitForStream { _ in true }
        return (server, engine, log, stream)
    }

    @Test(.enabled(if: SoundServer.isInstalled))
    func theFirstRouteIsReportedWithTheDevicesFormFactorAndAMixerMoveOffHeadphonesIsAMove() async throws {
        let media = try MediaFactory()
        let (server, engine, log, stream) = try await Self.playing(
            media, sinks: ["phones", "speakers"], headphones: ["phones"], on: "phones")
        defer { server.stop() }
        defer { engine.shutdown() }
        let first = try await log.wait(for: "the first route") { $0.route != nil }
        let (route, change) = try #require(first.entry.event.route)
        #expect(change == .initial)
        #expect(route.sinkName == "phones" && route.formFactor == "headphone" && route.isPrivateListening)
        #expect(route.sinkIndex == UInt32(try #require(try await offPool { try server.sinkIndex("phones") })))

        try await offPool { try server.move(input: stream.index, to: "speakers") }
        let moved = try await log.wait(for: "the move", after: first.index + 1) { $0.route != nil }
        #expect(moved.entry.event.route?.0.sinkName == "speakers")
        // The headphones still exist: the user chose the speakers (RouteChange's rule).
        #expect(moved.entry.event.route?.1 == .moved)

        // Changes of the stream that are not its route (here its volume) report no route.
        _ = try await offPool { try server.pactl(["set-sink-input-volume", "\(stream.index)", "0.5"]) }
        try await log.wait(for: "the mixer's volume", after: moved.index + 1) { $0.volumeChange != nil }
        try await offPool { try server.move(input: stream.index, to: "phones") }
        let back = try await log.wait(for: "back on the headphones", after: moved.index + 1) { $0.route != nil }
        #expect(back.entry.event.route?.1 == .moved)
        #expect(log.events.compactMap(\.route).count == 3, "\(log.events)")
    }

    /// A device that goes away while nothing plays is not a loss when play is pressed later: the
    /// new stream starts with an initial route, wherever the server puts it (here on the default
    /// sink, which falls back from the headphones to the speakers).
    @Test(.enabled(if: SoundServer.isInstalled))
    func aNewStreamAfterTheDeviceWentAwayWhileStoppedStartsAfresh() async throws {
        let media = try MediaFactory()
        let (server, engine, log, _) = try await Self.playing(
            media, sinks: ["speakers", "phones"], headphones: ["phones"], on: nil)
        defer { server.stop() }
        defer { engine.shutdown() }
        let first = try await log.wait(for: "the first route") { $0.route != nil }
        #expect(first.entry.event.route?.0.sinkName == "phones")
        engine.stop()
        try await log.wait(for: "stopped", after: first.index) { $0.isState(.stopped) }
        try await Self.noStreams(on: server)
        try await offPool { try server.removeSink("phones") }
        engine.play()
        let next = try await log.wait(for: "the new stream's route", after: first.index + 1) { $0.route != nil }
        #expect(next.entry.event.route?.1 == .initial)
        #expect(next.entry.event.route?.0.sinkName == "speakers")
    }

    /// The same-sink path headphones unplugged from a jack take (a sink "change" event, then the
    /// sink reads as not private), staged with a property change since null sinks have no ports.
    @Test(.enabled(if: SoundServer.isInstalled))
    func aSinkThatStopsBeingHeadphonesEndsPrivateListeningOnTheSameSink() async throws {
        let media = try MediaFactory()
        let (server, engine, log, _) = try await Self.playing(media, sinks: ["phones"], headphones: ["phones"], on: "phones")
        defer { server.stop() }
        defer { engine.shutdown() }
        let first = try await log.wait(for: "the first route") { $0.route != nil }
        try await offPool { try server.updateSinkProperty("phones", "device.form_factor", "speaker") }
        let changed = try await log.wait(for: "the change", after: first.index + 1) { $0.route != nil }
        let (route, change) = try #require(changed.entry.event.route)
        #expect(change == .privateListeningEnded)
        #expect(route.sinkIndex == first.entry.event.route?.0.sinkIndex && route.formFactor == "speaker")

        try await offPool { try server.updateSinkProperty("phones", "device.form_factor", "headset") }
        let back = try await log.wait(for: "headphones again", after: changed.index + 1) { $0.route != nil }
        #expect(back.entry.event.route?.1 == .privateListeningStarted)
    }

    /// The cap holds the stream under it on headphones, a mixer level below it is taken as is,
    /// one above it is what the user asked for (reported) but still played at the cap; on the
    /// speakers the level asked for plays in full.
    @Test(.enabled(if: SoundServer.isInstalled))
    func theCapHoldsAgainstTheMixerOnHeadphonesAndLiftsOnSpeakers() async throws {
        let media = try MediaFactory()
        let (server, engine, log, stream) = try await Self.playing(
            media, sinks: ["phones", "speakers"], headphones: ["phones"], on: "phones", cap: 0.3)
        defer { server.stop() }
        defer { engine.shutdown() }
        try await log.wait(for: "the first route") { $0.route != nil }
        engine.setVolume(0.8)
        _ = try await server.waitForStream { $0.index == stream.index && Self.isLevel(0.3, $0) }

        let start = log.all.count
        _ = try await offPool { try server.pactl(["set-sink-input-volume", "\(stream.index)", "0.2"]) }
        let low = try await log.wait(for: "the mixer's 0.2", after: start) { $0.volumeChange != nil }
        #expect(abs((low.entry.event.volumeChange?.volume ?? 0) - 0.2) < 0.001)
        _ = try await offPool { try server.pactl(["set-sink-input-volume", "\(stream.index)", "0.9"]) }
        let high = try await log.wait(for: "the mixer's 0.9", after: low.index + 1) { $0.volumeChange != nil }
        #expect(abs((high.entry.event.volumeChange?.volume ?? 0) - 0.9) < 0.001)
        _ = try await server.waitForStream { $0.index == stream.index && Self.isLevel(0.3, $0) }

        try await offPool { try server.move(input: stream.index, to: "speakers") }
        _ = try await server.waitForStream { $0.index == stream.index && Self.isLevel(0.9, $0) }
        // Neither re-capping nor lifting the cap came back as a change of volume.
        #expect(log.events[start...].compactMap(\.volumeChange).count == 2, "\(log.events[start...])")
    }

    /// A server that cannot be reached is one warning, not one per attempt, and no crash.
    @Test func anUnreachableServerWarnsOnce() async throws {
        let loop = EventLoop(name: "route-test")
        defer { loop.stop() }
        let warnings = Mutex<[String?]>([])
        let monitor = loop.sync {
            PulseRouteMonitor(loop: loop, tag: "test", report: { _, _ in }, unavailable: { warning in warnings.withLock { $0.append(warning) } })
        }
        for attempt in 1...2 {
            loop.sync { monitor.watch(server: "unix:/nonexistent/linnet-test/native") }
            let deadline = ContinuousClock.now + .seconds(10)
            while loop.sync({ monitor.isConnected }) {
                guard ContinuousClock.now < deadline else { throw MediaError("attempt \(attempt) never failed") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        loop.sync { monitor.disconnect() }
        // Each failure is reported, so the engine stops waiting for a route; the warning once.
        let seen = warnings.withLock { $0 }
        #expect(seen.count == 2, "\(seen)")
        #expect(seen.compactMap { $0 }.count == 1, "\(seen)")
        #expect(seen.first??.contains("unplugged headphones will not be noticed") == true)
    }

    /// Whether every channel of `stream` is at the linear `volume` (pulsesink's scale), within the
    /// server's rounding.
    private static func isLevel(_ volume: Double, _ stream: SoundServer.SinkInput) -> Bool {
        let raw = Int((cbrt(volume) * 65536).rounded())
        return !stream.volumes.isEmpty && stream.volumes.allSatisfy { abs($0 - raw) <= 2 }
    }

    /// Polls the server (test side only) until it has no playback stream.
    private static func noStreams(on server: SoundServer, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !offPool({ try server.sinkInputs() }).isEmpty {
            guard ContinuousClock.now < deadline else { throw MediaError("the stream never went away") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension PlaybackEvent {
    fileprivate var route: (OutputRoute, RouteChange)? {
        if case .outputRouteChanged(let route, let change) = self { (route, change) } else { nil }
    }

    fileprivate var volumeChange: (volume: Double, muted: Bool)? {
        if case .volumeChanged(let volume, let muted) = self { (volume, muted) } else { nil }
    }
}
