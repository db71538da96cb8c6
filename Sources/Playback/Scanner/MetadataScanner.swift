import Dispatch
import EventLoop
import FoundationEssentials
import Synchronization

/// Reads tags and durations of files before they play (GStreamer's discoverer), so a queue can
/// show titles and lengths at once.
///
/// Scans run on the scanner's own threads, at most `maxConcurrentScans` at a time, never on the
/// loop thread or Swift's cooperative pool (a discoverer blocks while it prerolls a file).
/// Threads exist only while there is work.
public final class MetadataScanner: Sendable {
    private struct Job: Sendable {
        let uri: String
        let continuation: CheckedContinuation<ScannedTrack, any Error>
    }

    private struct Queue {
        var jobs: [Job] = []
        var workers = 0
        var isShutDown = false
    }

    private let queue = Mutex(Queue())
    /// Entered by each worker thread for its life, so that ``shutdown()`` can wait for them.
    private let running = DispatchGroup()
    private let maxConcurrentScans: Int
    private let timeoutNanoseconds: UInt64
    private let tagReader: TagReader

    /// A scanner running up to `maxConcurrentScans` discoveries in parallel, giving up on a URI
    /// after `timeout`, and storing embedded art in `artCache`.
    public init(
        maxConcurrentScans: Int = 2, timeout: Duration = .seconds(10), artCache: ArtCache = .standard()
    ) {
        GStreamerRuntime.ensureInitialized()
        self.maxConcurrentScans = max(1, maxConcurrentScans)
        let (seconds, attoseconds) = timeout.components
        timeoutNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        tagReader = TagReader(artCache: artCache)
    }

    /// Scans one URI. Throws a ``PlaybackFailure`` when it cannot be read (missing, corrupt,
    /// unsupported, timed out).
    public func scan(_ uri: String) async throws -> ScannedTrack {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(Job(uri: uri, continuation: continuation))
        }
    }

    /// Scans several URIs with bounded parallelism; results come back in the order given.
    public func scan(_ uris: [String]) async -> [Result<ScannedTrack, PlaybackFailure>] {
        await withTaskGroup(of: (Int, Result<ScannedTrack, PlaybackFailure>).self) { group in
            for (index, uri) in uris.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await self.scan(uri)))
                    } catch let failure as PlaybackFailure {
                        return (index, .failure(failure))
                    } catch {
                        return (index, .failure(PlaybackFailure(uri: uri, message: "\(error)")))
                    }
                }
            }
            var results = [Result<ScannedTrack, PlaybackFailure>?](repeating: nil, count: uris.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    /// Fails the scans still queued, takes no more, and waits for those under way to finish
    /// (each is bounded by the timeout). A process must not exit while a scan runs: a
    /// discoverer loading a GStreamer plugin then re-runs every library's initialiser after
    /// exit has finalised them, and GLib aborts ("cannot register existing fundamental type";
    /// seen under ThreadSanitizer when linnet was asked to quit right after it started).
    public func shutdown() {
        let abandoned = queue.withLock { queue in
            queue.isShutDown = true
            defer { queue.jobs.removeAll() }
            return queue.jobs
        }
        for job in abandoned { job.continuation.resume(throwing: Self.shutDownFailure(job.uri)) }
        _ = running.wait(timeout: .now() + .nanoseconds(Int(timeoutNanoseconds)) + .seconds(1))
    }

    /// Whether ``shutdown()`` was called: results since then say nothing about the files.
    public var isShutDown: Bool { queue.withLock { $0.isShutDown } }

    private static func shutDownFailure(_ uri: String) -> PlaybackFailure {
        PlaybackFailure(uri: uri, message: "The metadata scanner was shut down")
    }

    private func enqueue(_ job: Job) {
        let startWorker = queue.withLock { queue -> Bool? in
            guard !queue.isShutDown else { return nil }
            queue.jobs.append(job)
            guard queue.workers < maxConcurrentScans else { return false }
            queue.workers += 1
            return true
        }
        guard let startWorker else { return job.continuation.resume(throwing: Self.shutDownFailure(job.uri)) }
        guard startWorker else { return }
        running.enter()
        let thread = Thread { [self] in
            work()
            running.leave()
        }
        thread.name = "linnet.scanner"
        thread.start()
    }

    /// One worker: a discoverer reused for every job it takes, until the queue is empty.
    private func work() {
        let discoverer = Discoverer(timeoutNanoseconds: timeoutNanoseconds, tagReader: tagReader)
        while let job = queue.withLock({ queue -> Job? in
            if queue.jobs.isEmpty {
                queue.workers -= 1
                return nil
            }
            return queue.jobs.removeFirst()
        }) {
            job.continuation.resume(with: Result { try discoverer.scan(job.uri) })
        }
    }
}
