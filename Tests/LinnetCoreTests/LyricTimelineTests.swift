@testable import DesktopClients
@testable import LibraryFormats
@testable import LinnetCore
import MPRIS
import PlayerCore
import Testing

/// The rule behind CurrentLyric: which line is current, and when the one timer fires next.
@Suite struct LyricTimelineTests {
    static let lines: [Lyrics.SyncedLine] = [
        .init(timeMicroseconds: 500_000, text: "one"),
        .init(timeMicroseconds: 1_000_000, text: "two"),
        .init(timeMicroseconds: 1_000_000, text: "two again"),
        .init(timeMicroseconds: 2_500_000, text: "three"),
    ]
    let timeline = LyricTimeline(lines: lines)

    @Test func beforeTheFirstLineNothingIsSungAndTheFirstLineIsNext() {
        let moment = timeline.moment(atMicroseconds: 0, rate: 1, playing: true, screenOn: true)
        #expect(moment == .init(lineIndex: nil, text: "", nextChange: .milliseconds(500)))
    }

    @Test func aLineIsCurrentFromItsStampOnAndTheDeadlineIsTheNextStamp() {
        #expect(timeline.moment(atMicroseconds: 500_000, rate: 1, playing: true, screenOn: true)
            == .init(lineIndex: 0, text: "one", nextChange: .milliseconds(500)))
        #expect(timeline.moment(atMicroseconds: 999_999, rate: 1, playing: true, screenOn: true)
            == .init(lineIndex: 0, text: "one", nextChange: .milliseconds(1)))
    }

    @Test func linesSharingAStampChangeOnceToTheLastOfThem() {
        let moment = timeline.moment(atMicroseconds: 1_000_000, rate: 1, playing: true, screenOn: true)
        #expect(moment == .init(lineIndex: 2, text: "two again", nextChange: .milliseconds(1500)))
    }

    @Test func theRateScalesTheWallTimeAndPartialMillisecondsRoundUp() {
        #expect(timeline.moment(atMicroseconds: 1_000_000, rate: 2, playing: true, screenOn: true).nextChange == .milliseconds(750))
        #expect(timeline.moment(atMicroseconds: 1_000_000, rate: 0.25, playing: true, screenOn: true).nextChange == .seconds(6))
        // 1 µs left at rate 1 is still a whole millisecond: a timer never fires before the line.
        #expect(timeline.moment(atMicroseconds: 2_499_999, rate: 1, playing: true, screenOn: true).nextChange == .milliseconds(1))
        #expect(timeline.moment(atMicroseconds: 0, rate: 3, playing: true, screenOn: true).nextChange == .milliseconds(167))
    }

    @Test func noDeadlineWhilePausedScreenOffOrAfterTheLastLine() {
        for (playing, screenOn, rate) in [(false, true, 1.0), (true, false, 1.0), (true, true, 0.0), (true, true, -1.0), (true, true, .nan)] {
            let moment = timeline.moment(atMicroseconds: 700_000, rate: rate, playing: playing, screenOn: screenOn)
            // The line is still known (a Get answers it); only the timer is not armed.
            #expect(moment == .init(lineIndex: 0, text: "one", nextChange: nil), "\(playing) \(screenOn) \(rate)")
        }
        #expect(timeline.moment(atMicroseconds: 9_000_000, rate: 1, playing: true, screenOn: true)
            == .init(lineIndex: 3, text: "three", nextChange: nil))
        #expect(LyricTimeline(lines: []).moment(atMicroseconds: 0, rate: 1, playing: true, screenOn: true)
            == .init(lineIndex: nil, text: "", nextChange: nil))
    }

    @Test func wakeUpsAtAStalledPositionBackOffSoTheyAreNoBusyLoop() {
        #expect(LyricTimeline.retryDelay(due: .milliseconds(1), stalledWakeUps: 1) == .milliseconds(4))
        #expect(LyricTimeline.retryDelay(due: .milliseconds(1), stalledWakeUps: 2) == .milliseconds(8))
        #expect(LyricTimeline.retryDelay(due: .milliseconds(30), stalledWakeUps: 2) == .milliseconds(30))
        #expect(LyricTimeline.retryDelay(due: .milliseconds(1), stalledWakeUps: 50) == .seconds(1))
    }

    @Test func syncedLyricsBeatPlainOnesAndTagsWinTies() {
        let lrc = "[00:01.00]Synced"
        #expect(TrackLyrics.resolve(tagText: "Plain words", sidecarText: lrc)?.synced.map(\.text) == ["Synced"])
        #expect(TrackLyrics.resolve(tagText: lrc, sidecarText: "Plain words")?.synced.map(\.text) == ["Synced"])
        #expect(TrackLyrics.resolve(tagText: "[00:02.00]Tag", sidecarText: lrc)?.plainText == "Tag")
        #expect(TrackLyrics.resolve(tagText: "Tag words", sidecarText: "Sidecar words")?.plainText == "Tag words")
        #expect(TrackLyrics.resolve(tagText: "  \n", sidecarText: nil) == nil)
        #expect(TrackLyrics.resolve(tagText: nil, sidecarText: "[ar:Only a tag]") == nil)
    }

    @Test func asTextIsThePlainLyricsEvenWhenTheTagHoldsLRC() {
        var facts = TrackFacts()
        facts.tags.lyrics = "[ti:Song]\n[00:00.50][00:01.50]la la\n[00:01.00]<00:01.20>di da"
        let metadata = Metadata(TrackItem(entry: QueueEntry(id: 1, uri: "file:///a.ogg"), facts: facts))
        #expect(metadata.lyrics == "la la\ndi da\nla la")
    }

    @Test func theScreenIsOffWhenAScreenSaverSaysSoElseWhenLogindSaysIdle() {
        #expect(ScreenActivityWatcher.screenOn(screenSaversActive: [], logindIdle: nil))
        #expect(!ScreenActivityWatcher.screenOn(screenSaversActive: [false, true], logindIdle: nil))
        // A screen saver that answered outranks logind's idle hint (idle is not yet blank).
        #expect(ScreenActivityWatcher.screenOn(screenSaversActive: [false], logindIdle: true))
        #expect(!ScreenActivityWatcher.screenOn(screenSaversActive: [], logindIdle: true))
    }
}
