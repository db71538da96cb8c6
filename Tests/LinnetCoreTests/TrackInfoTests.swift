@testable import LinnetCore
import Testing

/// Tag values come from untrusted files.
@Suite struct TrackInfoTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300])
    func nonsenseBeatsPerMinuteIsDroppedNotATrap(_ bpm: Double) {
        var info = TrackInfo()
        info.tags.beatsPerMinute = bpm
        #expect(info.metadata(for: QueueEntry(id: 1, uri: "file:///a.ogg")).beatsPerMinute == nil)
    }

    @Test func sensibleBeatsPerMinuteIsRounded() {
        var info = TrackInfo()
        info.tags.beatsPerMinute = 127.6
        #expect(info.metadata(for: QueueEntry(id: 1, uri: "file:///a.ogg")).beatsPerMinute == 128)
    }
}
