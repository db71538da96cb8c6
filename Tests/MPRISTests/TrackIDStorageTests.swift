import DBus
import MPRIS
import Testing

/// Track ids kept as a shared parent and a number are the same ids as the paths they spell:
/// equal, hashed alike, and read back, whichever way they were made.
@Suite struct TrackIDStorageTests {
    private let numbering = TrackID.Numbering(parent: "/org/example/track")!

    @Test func aNumberedIdIsThePathItSpells() throws {
        let made = numbering.id(42)
        let parsed = try #require(TrackID("/org/example/track/42"))
        #expect(made.path == "/org/example/track/42")
        #expect(made == parsed)
        #expect(Set([made, parsed]).count == 1)
        #expect(numbering.number(of: parsed) == 42)
        #expect(numbering.id(0).path == "/org/example/track/0")
        #expect(numbering.id(.max).path == "/org/example/track/18446744073709551615")
        #expect(TrackID.Numbering(parent: "/")!.id(7) == TrackID("/7"))
    }

    @Test func pathsThatAreNotCanonicalNumbersStayPathsOfTheirOwn() throws {
        // Each spells another path than any number of the numbering: never equal to one.
        for text in ["/org/example/track/042", "/org/example/track/18446744073709551616", "/org/example/track/4a",
                     "/org/example/track", "/org/example/track/x/42", "/org/example/trackx/42"] {
            let id = try #require(TrackID(text), "\(text)")
            #expect(id.path.rawValue == text)
            #expect(numbering.number(of: id) == nil, "\(text)")
        }
        #expect(TrackID("/org/example/track/042") != numbering.id(42))
        #expect(TrackID("/org/example/track/042") == TrackID("/org/example/track/042"))
        #expect(TrackID("/a/5") != TrackID("/a"))
    }

    @Test func idsOfOtherParentsOrWholePathsAreNotTheNumberings() throws {
        let other = TrackID.Numbering(parent: "/org/example/other")!
        #expect(numbering.number(of: other.id(3)) == nil)
        #expect(numbering.id(3) != other.id(3))
        #expect(numbering.number(of: .noTrack) == nil)
        #expect(TrackID.noTrack.path == "/org/mpris/MediaPlayer2/TrackList/NoTrack")
        #expect(TrackID.noTrack.isNoTrack && !numbering.id(1).isNoTrack)
    }

    @Test func aNumberingInTheReservedNamespaceIsRefused() {
        #expect(TrackID.Numbering(parent: "/org/mpris") == nil)
        #expect(TrackID.Numbering(parent: "/org/mpris/MediaPlayer2/TrackList") == nil)
        #expect(TrackID("/org/mpris/MediaPlayer2/7") == nil)
        #expect(TrackID.Numbering(parent: "/org/mprisx") != nil)
    }

    @Test func aLargeSetOfNumberedIdsFindsEachIdHowEverItWasMade() throws {
        let ids = (0..<10_000).map { numbering.id(UInt64($0)) }
        let set = Set(ids)
        #expect(set.count == 10_000)
        #expect(set.contains(try #require(TrackID("/org/example/track/9999"))))
        #expect(!set.contains(try #require(TrackID("/org/example/track/10000"))))
    }
}
