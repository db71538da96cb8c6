import Foundation
import LinnetCore
import PlayerCore
import TestSupport
import Testing

/// session.json is written with the queue's entries as hand-written JSON spliced into the
/// encoder's output for the rest: the file must read back to the same session, and hold the
/// same JSON as the plain encoder writes.
@Suite struct SessionFileEncodingTests {
    private static let awkwardURIs = [
        "file:///music/A%20B/01%20Song.ogg",
        "http://host/x.ogg?q=\"quoted\"&b=back\\slash",
        "file:///tabs\tand\nnewlines\r/and\u{1}control.ogg",
        "file:///ünïcödé/日本語.flac",
        "no-slash-at-all",
        "file:///music/entries\":[]/x.ogg",
    ]

    private func session(shuffled: Bool) -> SavedSession {
        var queue = PlayQueue(seed: 7)
        queue.replaceAll(with: Self.awkwardURIs + (0..<3_000).map { "file:///music/album \($0 / 12)/track \($0).ogg" }, startAt: 4)
        if shuffled { queue.setShuffle(true) }
        return SavedSession(queue: queue, position: .microseconds(1_234_567), volume: 0.5, rate: 1.25)
    }

    @Test(arguments: [false, true])
    func theSplicedFileReadsBackAsTheSameSessionAndTheSameJSON(shuffled: Bool) throws {
        let dir = try ScratchDirectory()
        let file = URL(fileURLWithPath: dir.path("session.json"))
        let store = StateStore<SavedSession>(fileURL: file)
        let saved = session(shuffled: shuffled)
        try store.save(saved)
        guard case .loaded(let loaded) = store.load() else {
            Issue.record("the saved session must load")
            return
        }
        #expect(loaded == saved)
        #expect(loaded.queue.entries.map(\.uri) == saved.queue.entries.map(\.uri))

        // The same document as the encoder writes on its own, apart from the save time.
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? NSDictionary
        let plain = try JSONSerialization.jsonObject(with: JSONEncoder().encode(saved)) as? NSDictionary
        #expect(written?["state"] as? NSDictionary == plain)
        let queue = (written?["state"] as? NSDictionary)?["queue"] as? NSDictionary
        let entries = queue?["entries"] as? [NSDictionary]
        #expect(entries?.count == saved.queue.count)
        #expect(entries?.first?.allKeys.count == 2)
        // Written by the splice, not the encoder's fallback (which escapes "/" as "\/").
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#"{"id":1,"uri":"file:///music/A%20B/01%20Song.ogg"}"#))
    }
}
