import Dispatch
import EventLoop
import FoundationEssentials
import Synchronization

/// Reads tags and durations of files before they play, so a queue can show titles and lengths
/// at once: from the ``ScanCache`` when the file is unchanged, else with TagLib, else (streams,
/// files TagLib cannot read) with GStreamer's discoverer.
///
/// Scans run on the scanner's own threads, at most `maxConcurrentScans` at a time, never on the
/// loop thread or Swift's cooperative pool (a discoverer blocks while it prerolls a file).
/// Threads exist only while there is work; when the last one runs out, the cache is flushed.
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
    private let artCache: ArtCache
    private let cache: (any ScanCache)?
    private let source: TagSource
    private let counts = Mutex(ScanTally())
    private let folderArt = FolderArtMemo()

    /// A scanner running up to `maxConcurrentScans` reads in parallel, giving up on a URI after
    /// `timeout`, storing embedded art in `artCache`, and remembering results in `cache`.
    public init(
        maxConcurrentScans: Int = 2, timeout: Duration = .seconds(10), artCache: ArtCache = .standard(),
        cache: (any ScanCache)? = nil, source: TagSource = .tagLibFirst
    ) {
        GStreamerRuntime.ensureInitialized()
        self.maxConcurrentScans = max(1, maxConcurrentScans)
        let (seconds, attoseconds) = timeout.components
        timeoutNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        self.artCache = artCache
        self.cache = cache
        self.source = source
    }

    /// Says that cover files next to tracks changed, so folder art is looked up afresh.
    public func folderArtChanged() {
        folderArt.reset()
    }

    /// How the scans so far were answered.
    public var tally: ScanTally { counts.withLock { $0 } }

    /// Scans one URI. Throws a ``PlaybackFailure`` when it cannot be read (missing, corrupt,
    /// unsupported, timed out).
    public func scan(_ uri: String) async throws -> ScannedTrack {
        if let cached = cachedTracks([uri])[0] { return cached }
        return try await read(uri)
    }

    private func read(_ uri: String) async throws -> ScannedTrack {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(Job(uri: uri, continuation: continuation))
        }
    }

    /// Scans several URIs with bounded parallelism; results come back in the order given.
    public func scan(_ uris: [String]) async -> [Result<ScannedTrack, PlaybackFailure>] {
        let cached = cachedTracks(uris)
        return await withTaskGroup(of: (Int, Result<ScannedTrack, PlaybackFailure>).self) { group in
            var results = cached.map { track in track.map { Result<ScannedTrack, PlaybackFailure>.success($0) } }
            for (index, uri) in uris.enumerated() where cached[index] == nil {
                group.addTask {
                    do {
                        return (index, .success(try await self.read(uri)))
                    } catch let failure as PlaybackFailure {
                        return (index, .failure(failure))
                    } catch {
                        return (index, .failure(PlaybackFailure(uri: uri, message: "\(error)")))
                    }
                }
            }
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
        // What was read before the stop is worth keeping for the next start.
        cache?.flush()
    }

    /// What the cache holds for `uris` (nil where a file would have to be read), reading no
    /// file: for a caller that wants what is known at once and leaves the rest to ``scan(_:)-(String)``.
    public func cachedResults(_ uris: [String]) -> [ScannedTrack?] {
        cachedTracks(uris)
    }

    /// ``cachedResults(_:)`` for local files the caller has just examined (`identities[i]` is
    /// the file of `uris[i]` as it is now; nil asks nothing for it), without parsing each URI
    /// back or examining the file again.
    public func cachedResults(_ uris: [String], identities: [FileIdentity?]) -> [ScannedTrack?] {
        precondition(uris.count == identities.count, "one identity per URI")
        return cachedTracks(uris, identities: identities)
    }

    /// The cached results for `uris` (nil where a file must be read), in one cache lookup. A
    /// hit whose embedded art's file is gone counts as a miss, so the art is written again; a hit
    /// without embedded art gets the folder's cover as it is now (the row holds the one it was
    /// read with, and a cover added or deleted beside unchanged files must not need a read).
    private func cachedTracks(_ uris: [String], identities known: [FileIdentity?]? = nil) -> [ScannedTrack?] {
        guard let cache else { return Array(repeating: nil, count: uris.count) }
        var positions: [Int] = []
        var identities: [FileIdentity] = []
        positions.reserveCapacity(uris.count)
        identities.reserveCapacity(uris.count)
        for (index, uri) in uris.enumerated() {
            let identity = known.map { $0[index] } ?? LocalFileReader.localPath(of: uri).flatMap(FileIdentity.current(path:))
            guard let identity else { continue }
            positions.append(index)
            identities.append(identity)
        }
        var tracks = [ScannedTrack?](repeating: nil, count: uris.count)
        guard !identities.isEmpty else { return tracks }
        // An album's tracks share one stored cover: checked once per lookup, not per track.
        var storedArtExists: [String: Bool] = [:]
        for (position, found) in zip(positions, cache.lookup(identities)) {
            guard var track = found else { continue }
            if let art = track.metadata.artURI, !ArtCache.isBeside(art, uris[position]) {
                let exists = storedArtExists[art] ?? ArtCache.stillExists(art)
                storedArtExists[art] = exists
                guard exists else { continue }
            } else {
                track.metadata.artURI = folderArt.art(nextTo: uris[position])
            }
            track.uri = uris[position]
            tracks[position] = track
        }
        let hits = tracks.count { $0 != nil }
        counts.withLock { $0.cacheHits += hits }
        return tracks
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

    /// One worker: a reader (and its discoverer) reused for every job it takes, until the queue
    /// is empty. The last worker out flushes the cache's pending writes.
    private func work() {
        let reader = LocalFileReader(
            source: source, artCache: artCache, folderArt: folderArt, timeoutNanoseconds: timeoutNanoseconds)
        var isLast = false
        while let job = queue.withLock({ queue -> Job? in
            if queue.jobs.isEmpty {
                queue.workers -= 1
                isLast = queue.workers == 0
                return nil
            }
            return queue.jobs.removeFirst()
        }) {
            job.continuation.resume(with: Result { try read(job.uri, with: reader) })
        }
        if isLast { cache?.flush() }
    }

    private func read(_ uri: String, with reader: LocalFileReader) throws -> ScannedTrack {
        let outcome: LocalFileReader.Outcome
        do {
            outcome = try reader.read(uri)
        } catch {
            counts.withLock { $0.failures += 1 }
            throw error
        }
        switch outcome {
        case .tagLib(let track, let identity):
            counts.withLock { $0.tagLibReads += 1 }
            if let identity { cache?.store(track, for: identity) }
            return track
        case .gstreamer(let track, let identity):
            counts.withLock { $0.gstreamerReads += 1 }
            if let identity { cache?.store(track, for: identity) }
            return track
        }
    }
}
