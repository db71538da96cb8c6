@testable import PlayerCore
import Testing

@Suite struct TrackFactsTests {
    @Test(arguments: [
        ("file:///music/My%20Song.flac", "My Song"),
        ("file:///music/album/", "album"),
        ("http://radio.example/stream.ogg?session=1", "stream"),
        ("https://radio.example", "https://radio.example"),
        ("http://radio.example/", "http://radio.example/"),
        ("file:///music/bad%FFname.ogg", "bad%FFname"),
        ("file:///music/.hidden", ".hidden"),
        ("file:///music/a:b.ogg", "a:b"),
        ("relative:name/song.ogg", "song"),
        ("x:y://host/z.ogg", "z"),
    ])
    func fallbackTitlesReadLikeFileNames(_ uri: String, _ title: String) {
        #expect(TrackFacts.fallbackTitle(for: uri) == title)
    }

    @Test func newerTagsWinAndAbsentOnesKeepTheOld() {
        var facts = TrackFacts(hintTitle: "Hint", hintArtist: "Someone")
        var first = TrackTags()
        first.title = "Title"
        first.artists = ["A"]
        facts.merge(first, duration: .microseconds(5))
        var second = TrackTags()
        second.album = "Album"
        facts.merge(second)
        #expect(facts.title(for: "file:///x.ogg") == "Title")
        #expect(facts.artists == ["A"])
        #expect(facts.tags.album == "Album")
        #expect(facts.length == .microseconds(5))
    }
}
