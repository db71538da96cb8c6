import Foundation
@testable import Playback
import Testing

/// A pipeline that GStreamer does not let go of is replaced, and playback goes on in the new one.
///
/// The real case (an http download cut short, where GStreamer 1.22 can deadlock in the change to
/// NULL) is covered end to end in BrokenMediaTests but happens only about 1 run in 8. Here the
/// sink writes into a FIFO that is open for reading but not read: once the pipe is full the
/// streaming thread blocks in write(2), which no flush interrupts, so the change to NULL waits
/// until the test drains the FIFO. (An `identity sleep-time` stall was tried first; the change
/// did not always wait for it, and the test flaked.)
/// Serialized: the blocked-writer check looks at every thread of the process.
@Suite(.serialized) struct StuckPipelineTests {
    @Test(.timeLimit(.minutes(1))) func aPipelineStuckStoppingIsReplacedAndPlaysWhatWasAskedFor() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100 * 5)
        let second = try media.indexedWAV("second.wav", frames: 4_410)
        let fifo = try UnreadFIFO(path: media.path("out.fifo"))
        let engine = GStreamerEngine(settings: EngineSettings(
            output: .description(fifo.sinkDescription), application: .linnet, role: .music, replayGain: .off,
            artCache: .standard(), stuckPatience: .milliseconds(300)))
        defer {
            engine.shutdown()
            fifo.finish()
        }
        let log = EventLog(engine.events)
        engine.load(first)
        engine.play()
        let firstStarted = try await log.wait(for: "the first track starting") { $0.isTrackStart(first) }
        try await fifo.waitUntilAWriterIsBlocked()

        // Stopping the first track now waits on the blocked write.
        engine.load(second)
        let stuck = try await log.wait(for: "the stuck pipeline reported", after: firstStarted.index) { event in
            if case .warning(_, let message) = event { message.contains("stuck") } else { false }
        }
        print("replaced after: \(stuck.entry.event)")
        // Both pipelines write into the same pipe: reading it lets the new one play, and the old
        // one (abandoned) finish its change to NULL, which must then report nothing.
        fifo.drain()
        let started = try await log.wait(for: "the second track starting", after: stuck.index) { $0.isTrackStart(second) }
        let end = try await log.wait(for: "the second track's end", after: started.index) { $0.isEndOfStream }

        // The new pipeline takes further commands.
        engine.load(second)
        engine.play()
        try await log.wait(for: "the second track's end again", after: end.index + 1) { $0.isEndOfStream }
        // The old pipeline was let go of during the drain; had it not been abandoned, it would
        // have gone on to load the second track as well and reported it a third time.
        #expect(log.events.filter { $0.isTrackStart(second) }.count == 2)
        #expect(log.events.filter(\.isError).isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func shuttingDownAStuckPipelineDoesNotWaitForIt() async throws {
        let media = try MediaFactory()
        let first = try media.indexedWAV("first.wav", frames: 44_100 * 5)
        let fifo = try UnreadFIFO(path: media.path("out.fifo"))
        defer { fifo.finish() }
        let engine = GStreamerEngine(settings: EngineSettings(
            output: .description(fifo.sinkDescription), application: .linnet, role: .music, replayGain: .off,
            artCache: .standard(), stuckPatience: .milliseconds(200)))
        let log = EventLog(engine.events)
        engine.load(first)
        engine.play()
        try await log.wait(for: "the track starting") { $0.isTrackStart(first) }
        try await fifo.waitUntilAWriterIsBlocked()
        // Returns after twice the patience although the write never ends; the warning says so.
        engine.shutdown()
        try await log.wait(for: "the pipeline left behind") { event in
            if case .warning(_, let message) = event { message.contains("did not let go") } else { false }
        }
        // Let the abandoned pipeline's thread finish.
        fifo.drain()
    }
}

/// A FIFO held open for reading (so a writer can open it) that nobody reads until ``drain()``.
private final class UnreadFIFO: @unchecked Sendable {
    let path: String
    private let reader: Int32
    private let drained = DispatchSemaphore(value: 0)
    private var draining = false

    init(path: String) throws {
        guard mkfifo(path, 0o600) == 0 else { throw MediaError("mkfifo failed: errno \(errno)") }
        self.path = path
        reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { throw MediaError("cannot open the FIFO: errno \(errno)") }
    }

    /// Raw samples as fast as they come: no preroll and no clock, so the pipe fills at once.
    var sinkDescription: String { "filesink location=\(path) sync=false async=false" }

    /// Reads everything written from now on, on a thread of its own, until every writer has
    /// closed the FIFO.
    func drain() {
        let (reader, drained) = (reader, drained)
        draining = true
        Thread {
            defer { drained.signal() }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                var readable = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                guard poll(&readable, 1, -1) >= 0 || errno == EINTR else { return }
                let count = read(reader, &buffer, buffer.count)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return }
            }
        }.start()
    }

    /// Waits until a thread of this process sleeps in write(2) on a full pipe: the kernel names
    /// that wait `pipe_write` (`anon_pipe_write` on newer kernels) in /proc. Test-side polling.
    func waitUntilAWriterIsBlocked() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            let blocked = tasks.contains { task in
                let wchan = (try? String(contentsOfFile: "/proc/self/task/\(task)/wchan", encoding: .utf8)) ?? ""
                return wchan.hasSuffix("pipe_write")
            }
            if blocked { return }
            guard ContinuousClock.now < deadline else { throw MediaError("no writer ever blocked on the FIFO") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Closes the reading end once a drain has seen every writer go (the pipelines are shut down
    /// by then), so the descriptor is never closed under the reading thread.
    func finish() {
        if draining { _ = drained.wait(timeout: .now() + 15) }
        close(reader)
    }
}
