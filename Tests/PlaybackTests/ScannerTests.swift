import Foundation
import Playback
import Testing

/// The scanner reads titles and durations without playing, in parallel, and reports failures.
@Suite struct ScannerTests {
    @Test func scannerReadsTitlesAndDurations() async throws {
        let media = try MediaFactory()
        var uris: [String] = []
        for index in 0..<4 {
            // 1024-frame buffers at 44.1 kHz.
            uris.append(try await media.ogg("t\(index).ogg", buffers: 10 + 10 * index, tags: #"title="Track\ \#(index)""#))
        }
        uris.append(try media.indexedWAV("plain.wav", frames: 22_050))
        let missing = media.uri("missing.ogg")
        let scanner = MetadataScanner(maxConcurrentScans: 2, artCache: ArtCache(directory: media.path("art")))
        let results = await scanner.scan(uris + [missing])
        #expect(results.count == 6)
        for index in 0..<4 {
            let track = try results[index].get()
            let expected = Int64((10 + 10 * index) * 1024) * 1_000_000 / 44_100
            print("scanned \(track.metadata.title ?? "?"): \(track.durationMicroseconds ?? -1) µs (expected ≈\(expected))")
            #expect(track.uri == uris[index])
            #expect(track.metadata.title == "Track \(index)")
            #expect(abs((track.durationMicroseconds ?? 0) - expected) < 30_000)
        }
        let wav = try results[4].get()
        #expect(wav.durationMicroseconds == 500_000)
        #expect(wav.metadata.title == nil)
        guard case .failure(let failure) = results[5] else {
            Issue.record("a missing file scanned successfully")
            return
        }
        #expect(failure.uri == missing)
    }
}
