@testable import LinnetCore
import PlayerCore
import MPRIS
import Testing

/// Tag values come from untrusted files.
@Suite struct TrackMetadataMappingTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300])
    func nonsenseBeatsPerMinuteIsDroppedNotATrap(_ bpm: Double) {
        var facts = TrackFacts()
        facts.tags.beatsPerMinute = bpm
        #expect(Metadata(TrackItem(entry: QueueEntry(id: 1, uri: "file:///a.ogg"), facts: facts)).beatsPerMinute == nil)
    }

    @Test func sensibleBeatsPerMinuteIsRounded() {
        var facts = TrackFacts()
        facts.tags.beatsPerMinute = 127.6
        #expect(Metadata(TrackItem(entry: QueueEntry(id: 1, uri: "file:///a.ogg"), facts: facts)).beatsPerMinute == 128)
    }
}
