@testable import PlayerCore
import PlayerTestKit
import Testing

/// One publication per change: a local file's facts are its scan's (tags, length and the art
/// decided once), read ahead of its start and published with it; the engine's later reports of
/// the same file change nothing. A stream's live tags are each a change of their own.
@Suite struct PlayerMachineTrackFactsTests {
    let uris = ["file:///m/a.ogg", "file:///m/b.ogg", "file:///m/c.ogg"]

    private static func tags(_ title: String, art: String?) -> TrackTags {
        var tags = TrackTags()
        tags.title = title
        tags.artURI = art
        return tags
    }

    private static func publications(_ effects: [PlayerEffect]) -> [PlayerSnapshot] {
        effects.compactMap { if case .publish(let snapshot, _, _) = $0 { snapshot } else { nil } }
    }

    private static func scanAll(_ fixture: inout MachineHarness) {
        for index in fixture.machine.queue.entries.indices {
            let art = "file:///cache/art/\(index).png"
            fixture.send(.scanned(entryID: fixture.id(index), .read(
                Self.tags("T\(index)", art: art), duration: .microseconds(1_000_000), sidecarLyrics: nil)))
        }
    }

    @Test func theScanPublishesALocalTrackOnceAndTheEngineChangesNothingAfter() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        // Before the scan answers: the engine's length is kept quietly, its tags ignored.
        #expect(Self.publications(fixture.engine(.duration(uri: uris[0], .microseconds(999_000)))).isEmpty)
        #expect(Self.publications(fixture.engine(.tags(uri: uris[0], Self.tags("", art: "file:///m/cover.jpg")))).isEmpty)
        let scanned = fixture.send(.scanned(entryID: fixture.id(0), .read(
            Self.tags("A", art: "file:///cache/art/a.png"), duration: .microseconds(1_000_000), sidecarLyrics: nil)))
        let shown = Self.publications(scanned)
        #expect(shown.count == 1)
        #expect(shown.first?.current?.facts.tags.title == "A")
        #expect(shown.first?.current?.facts.tags.artURI == "file:///cache/art/a.png")
        #expect(shown.first?.current?.facts.length == .microseconds(1_000_000))
        // The engine then reads the same file: folder art first, a length a little off.
        #expect(fixture.engine(.tags(uri: uris[0], Self.tags("A", art: "file:///m/cover.jpg"))).isEmpty)
        #expect(fixture.engine(.duration(uri: uris[0], .microseconds(998_458))).isEmpty)
        #expect(fixture.machine.snapshot.current?.facts.tags.artURI == "file:///cache/art/a.png")
    }

    @Test func theEnginesLengthWaitsForAScanThatFindsNone() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        fixture.engine(.duration(uri: uris[0], .microseconds(999_000)))
        // A publication meanwhile (the user pauses) shows no length yet: it comes with the tags.
        #expect(Self.publications(fixture.command(.pause)).allSatisfy { $0.current?.facts.length == nil })
        let scanned = fixture.send(.scanned(entryID: fixture.id(0), .read(
            Self.tags("A", art: nil), duration: nil, sidecarLyrics: nil)))
        #expect(Self.publications(scanned).map { $0.current?.facts.length } == [.microseconds(999_000)])
    }

    @Test func aGaplessStartOfAReadTrackIsOnePublicationWithEverything() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        Self.scanAll(&fixture)
        fixture.engine(.aboutToFinish(handsOverNext: true))
        let started = fixture.engine(.trackStarted(uri: uris[1]))
        let shown = Self.publications(started)
        #expect(shown.count == 1)
        #expect(shown.first?.current?.facts.tags.title == "T1")
        #expect(shown.first?.current?.facts.tags.artURI == "file:///cache/art/1.png")
        #expect(fixture.engine(.tags(uri: uris[1], Self.tags("T1", art: "file:///m/cover.jpg"))).isEmpty)
        #expect(fixture.engine(.duration(uri: uris[1], .microseconds(1_000_001))).isEmpty)
    }

    @Test func theNextTrackAndAJumpedToTrackAreReadAhead() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        // The queue's own scan was asked for all; the current and the next are asked for again
        // on their own, ahead of the queue's order.
        let asked = fixture.log.compactMap { if case .scan(let entries) = $0 { entries.map(\.uri) } else { nil } }
        #expect(asked.contains([uris[0]]))
        #expect(asked.contains([uris[1]]))
        let jump = fixture.command(.goTo(entryID: fixture.id(2)))
        let askedOnJump = jump.compactMap { if case .scan(let entries) = $0 { entries.map(\.uri) } else { nil } }
        #expect(askedOnJump.contains([uris[2]]))
        // Once per entry.
        #expect(fixture.command(.goTo(entryID: fixture.id(2))).allSatisfy { if case .scan = $0 { false } else { true } })
    }

    @Test func aStreamsLiveTagsAreEachOneChange() {
        let stream = "http://radio.example/live.ogg"
        var fixture = MachineHarness(uris: [stream], autoplay: true)
        #expect(fixture.log.allSatisfy { if case .scan = $0 { false } else { true } })
        #expect(Self.publications(fixture.engine(.tags(uri: stream, Self.tags("Song one", art: nil)))).count == 1)
        #expect(Self.publications(fixture.engine(.tags(uri: stream, Self.tags("Song one", art: nil)))).isEmpty)
        #expect(Self.publications(fixture.engine(.tags(uri: stream, Self.tags("Song two", art: nil)))).count == 1)
        #expect(Self.publications(fixture.engine(.duration(uri: stream, .microseconds(5)))).count == 1)
    }

    /// A local file read again after it changed shows what that read found: a cover or a tag
    /// gone since is gone from the facts too, in one publication; the length stays known.
    @Test func aLocalFileReadAgainShowsOnlyWhatTheNewReadFound() {
        var fixture = MachineHarness(uris: uris, autoplay: true)
        var full = Self.tags("A", art: "file:///m/cover.jpg")
        full.album = "Album"
        full.artists = ["Artist"]
        fixture.send(.scanned(entryID: fixture.id(0), .read(full, duration: .microseconds(1_000_000), sidecarLyrics: nil)))
        var stripped = TrackTags()
        stripped.title = "A"
        let reread = fixture.send(.scanned(entryID: fixture.id(0), .read(stripped, duration: nil, sidecarLyrics: nil)))
        let shown = Self.publications(reread)
        #expect(shown.count == 1)
        let facts = shown.first?.current?.facts
        #expect(facts?.tags.title == "A")
        #expect(facts?.tags.artURI == nil)
        #expect(facts?.tags.album == nil)
        #expect(facts?.artists == [])
        #expect(facts?.length == .microseconds(1_000_000))
        // The same read once more changes nothing.
        #expect(Self.publications(fixture.send(.scanned(entryID: fixture.id(0), .read(
            stripped, duration: nil, sidecarLyrics: nil)))).isEmpty)
        // Every tag gone: the title falls back to the file's name, as before the first read.
        fixture.send(.scanned(entryID: fixture.id(0), .read(TrackTags(), duration: nil, sidecarLyrics: nil)))
        #expect(fixture.machine.snapshot.current?.facts.title(for: uris[0]) == "a")
    }
}
