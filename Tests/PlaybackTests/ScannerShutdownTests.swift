import Foundation
import Playback
import Testing
import TestSupport

/// A scanner shut down while it works ends every scan and takes no more, so that a process can
/// exit without a discoverer still loading GStreamer plugins (which, after exit has finalised
/// the libraries, makes GLib abort).
@Suite struct ScannerShutdownTests {
    @Test(.timeLimit(.minutes(1))) func shutdownEndsQueuedScansAndRefusesNewOnes() async throws {
        // Streams that send headers and then nothing: the two running reads last until the
        // server closes them, so the other 38 are still queued when the scanner shuts down, on
        // any machine. The scanner's timeout is far beyond the test's: a read that timed out
        // before a loaded machine got to the shutdown let a worker start a third.
        let server = try LoopbackHTTPServer(body: Data(), contentType: "audio/ogg", behaviour: .stallAfter(bytes: 0))
        var serverStopped = false
        defer { if !serverStopped { server.stop() } }
        let uris = (0..<40).map { "\(server.uri)?\($0)" }
        let scanner = MetadataScanner(maxConcurrentScans: 2, timeout: .seconds(600))
        let scans = Task { await scanner.scan(uris) }
        // A request at the server means a read is running, and so the scans are enqueued.
        while server.requestCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // Blocking until running scans finish: not on the cooperative pool.
        let shutdown = Task { try await offPool { scanner.shutdown() } }
        // Once the queue is closed, closing the stalled streams ends the two running reads.
        while !scanner.isShutDown { try await Task.sleep(for: .milliseconds(5)) }
        server.stop()
        serverStopped = true
        try await shutdown.value

        let results = await scans.value
        let shutDown = results.filter {
            if case .failure(let failure) = $0 { failure.message.contains("shut down") } else { false }
        }
        let read = results.filter { if case .success = $0 { true } else { false } }
        print("scanner shut down with \(read.count) of \(uris.count) read, \(shutDown.count) ended unread")
        #expect(read.isEmpty, "a stream that sends nothing was read: \(read)")
        #expect(shutDown.count >= uris.count - 2, "only the two running reads may end otherwise: \(results)")
        #expect(scanner.isShutDown)
        await #expect(throws: PlaybackFailure.self) { try await scanner.scan(uris[0]) }
    }
}
