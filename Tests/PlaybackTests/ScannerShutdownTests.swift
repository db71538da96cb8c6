import Foundation
import Playback
import Testing
import TestSupport

/// A scanner shut down while it works ends every scan and takes no more, so that a process can
/// exit without a discoverer still loading GStreamer plugins (which, after exit has finalised
/// the libraries, makes GLib abort).
@Suite struct ScannerShutdownTests {
    @Test(.timeLimit(.minutes(1))) func shutdownEndsQueuedScansAndRefusesNewOnes() async throws {
        let media = try MediaFactory()
        let uris = try (0..<40).map { try media.indexedWAV("t\($0).wav", frames: 4_410) }
        let scanner = MetadataScanner(maxConcurrentScans: 2)
        let scans = Task { await scanner.scan(uris) }
        try await Task.sleep(for: .milliseconds(20))
        // Blocking until running scans finish: not on the cooperative pool.
        try await offPool { scanner.shutdown() }

        let results = await scans.value
        let shutDown = results.filter {
            if case .failure(let failure) = $0 { failure.message.contains("shut down") } else { false }
        }
        let read = results.filter { if case .success = $0 { true } else { false } }
        print("scanner shut down with \(read.count) of \(uris.count) read, \(shutDown.count) ended unread")
        #expect(read.count + shutDown.count == uris.count, "nothing else may fail: \(results)")
        #expect(!shutDown.isEmpty, "40 files cannot all be read within 20 ms")
        #expect(scanner.isShutDown)
        await #expect(throws: PlaybackFailure.self) { try await scanner.scan(uris[0]) }
    }
}
