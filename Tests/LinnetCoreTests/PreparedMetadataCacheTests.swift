import DBus
@testable import LinnetCore
import MPRIS
import PlayerCore
import Testing

/// GetTracksMetadata's rows are kept per entry while the entry and its facts stay the same, and
/// never answered stale.
@Suite struct PreparedMetadataCacheTests {
    private func title(of map: DBusPreparedDictionary) throws -> String? {
        let values = try DBusMessageWriter.scratchBodyValues { $0.append(map) }
        return values.first.map { Metadata(dbusValue: $0).title } ?? nil
    }

    private func facts(title: String) -> TrackFacts {
        var facts = TrackFacts()
        facts.tags.title = title
        return facts
    }

    @Test func theSameEntryAndFactsReuseTheMap() {
        let cache = PreparedMetadataCache()
        let entry = QueueEntry(id: 7, uri: "file:///music/a.ogg")
        let facts = facts(title: "A")
        #expect(cache.map(for: entry, facts: facts) === cache.map(for: entry, facts: facts))
    }

    @Test func changedFactsOrURIAreAnsweredAnew() throws {
        let cache = PreparedMetadataCache()
        let entry = QueueEntry(id: 7, uri: "file:///music/a.ogg")
        let first = cache.map(for: entry, facts: facts(title: "Before"))
        let retagged = cache.map(for: entry, facts: facts(title: "After"))
        #expect(first !== retagged)
        #expect(try title(of: retagged) == "After")
        let moved = cache.map(for: QueueEntry(id: 7, uri: "file:///music/b.ogg"), facts: TrackFacts())
        #expect(try title(of: moved) == TrackFacts.fallbackTitle(for: "file:///music/b.ogg"))
    }

    @Test func entriesSharingASlotEachGetTheirOwnMap() throws {
        let cache = PreparedMetadataCache()
        let one = QueueEntry(id: 3, uri: "file:///music/one.ogg")
        let other = QueueEntry(id: 3 + UInt64(PreparedMetadataCache.capacity), uri: "file:///music/other.ogg")
        for _ in 0..<2 {
            #expect(try title(of: cache.map(for: one, facts: facts(title: "One"))) == "One")
            #expect(try title(of: cache.map(for: other, facts: facts(title: "Other"))) == "Other")
        }
    }

    /// A row is prepared only when it is asked for again: the first request is written
    /// directly (nil), the second keeps the map, later ones reuse it.
    @Test func keptMapsArePreparedOnTheSecondRequest() throws {
        let cache = PreparedMetadataCache()
        let entry = QueueEntry(id: 9, uri: "file:///music/a.ogg")
        let tagged = facts(title: "A")
        #expect(cache.keptMap(for: entry, facts: tagged) == nil)
        let kept = try #require(cache.keptMap(for: entry, facts: tagged))
        #expect(cache.keptMap(for: entry, facts: tagged) === kept)
        #expect(try title(of: kept) == "A")
        // New facts start over, and are never answered with the old map.
        #expect(cache.keptMap(for: entry, facts: facts(title: "B")) == nil)
        #expect(try title(of: try #require(cache.keptMap(for: entry, facts: facts(title: "B")))) == "B")
    }
}
