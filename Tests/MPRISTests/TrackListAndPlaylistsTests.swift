import DBus
import MPRIS
import Testing
import TestSupport

/// TrackList and Playlists through the bus.
@Suite struct TrackListAndPlaylistsTests {
    @Test func getTracksMetadataAnswersInOrderAndSkipsUnknownIds() async throws {
        let fixture = try MPRISFixture()
        let reply = try await fixture.proxy(MPRISNames.trackList).call("GetTracksMetadata", [
            .array(.objectPath, [.objectPath("/org/linnet/test/track/3"), .objectPath("/nope"), .objectPath("/org/linnet/test/track/1")]),
        ])
        guard case .array(_, let maps)? = reply.first else {
            Issue.record("GetTracksMetadata returned \(reply)")
            return
        }
        #expect(maps.map { Metadata(dbusValue: $0).title } == ["Song 3", "Song 1"])
        #expect(reply.first?.type.signature == "aa{sv}")
    }

    /// The ids are read in place: reserved and foreign ids are left out, and more than
    /// 10,000 ids are refused with LimitsExceeded.
    @Test func getTracksMetadataBoundsAndFiltersTheIdsItReads() async throws {
        let fixture = try MPRISFixture()
        let trackList = fixture.proxy(MPRISNames.trackList)
        let mixed: [ObjectPath] = ["/org/linnet/test/track/2", TrackID.noTrack.path, "/org/mpris/x/1", "/org/linnet/test/track/02"]
        let reply = try await trackList.call("GetTracksMetadata", [.array(.objectPath, mixed.map { .objectPath($0) })])
        guard case .array(_, let maps)? = reply.first else {
            Issue.record("GetTracksMetadata returned \(reply)")
            return
        }
        #expect(maps.map { Metadata(dbusValue: $0).title } == ["Song 2"])
        let unknown = (1...10_000).map { DBusValue.objectPath(ObjectPath("/org/linnet/test/none").appending(number: UInt64($0))) }
        #expect(try await trackList.call("GetTracksMetadata", [.array(.objectPath, unknown)]) == [.array(.dictionary(key: .string, value: .variant), [])])
        do {
            _ = try await trackList.call("GetTracksMetadata", [.array(.objectPath, unknown + [.objectPath("/org/linnet/test/track/1")])])
            Issue.record("10,001 ids accepted")
        } catch { #expect(error.name == .limitsExceeded) }
    }

    /// A row written straight into the reply still refuses what libdbus cannot carry: a tag
    /// with NUL is InvalidArgs, every time, and the other rows are answered after it.
    @Test func getTracksMetadataRefusesANulInATagEveryTime() async throws {
        let fixture = try MPRISFixture()
        let trackList = fixture.proxy(MPRISNames.trackList)
        fixture.player.model.withLock { $0.tracks[0].title = "bad\u{0}title" }
        for _ in 0..<3 {
            do {
                _ = try await trackList.call("GetTracksMetadata", [.array(.objectPath, [.objectPath("/org/linnet/test/track/1")])])
                Issue.record("a NUL in a tag was sent")
            } catch { #expect(error.name == .invalidArgs) }
        }
        let reply = try await trackList.call("GetTracksMetadata", [.array(.objectPath, [.objectPath("/org/linnet/test/track/2")])])
        guard case .array(_, let maps)? = reply.first else {
            Issue.record("GetTracksMetadata returned \(reply)")
            return
        }
        #expect(maps.map { Metadata(dbusValue: $0).title } == ["Song 2"])
    }

    @Test func goToChangesTrackAndNoTrackIsInvalid() async throws {
        let fixture = try MPRISFixture()
        let trackList = fixture.proxy(MPRISNames.trackList)
        try await trackList.call("GoTo", [.objectPath("/org/linnet/test/track/2")])
        #expect(try fixture.playerctl("metadata", "title") == "Song 2")
        try await trackList.call("GoTo", [.objectPath("/org/linnet/test/unknown")])  // not in the list: no effect
        do {
            try await trackList.call("GoTo", [.objectPath(TrackID.noTrack.path)])
            Issue.record("GoTo NoTrack accepted")
        } catch { #expect(error.name == .invalidArgs) }
        #expect(fixture.player.calls.values == ["GoTo /org/linnet/test/track/2"])
    }

    @Test func addTrackAtTheStartWithNoTrack() async throws {
        let fixture = try MPRISFixture()
        let trackList = fixture.proxy(MPRISNames.trackList)
        try await trackList.call("AddTrack", [.string("http://radio/stream.ogg"), .objectPath(TrackID.noTrack.path), .boolean(true)])
        #expect(try await trackList.property("Tracks").decode(as: [ObjectPath].self).first == "/org/linnet/test/added/1")
        do {
            try await trackList.call("AddTrack", [.string("gopher://x"), .objectPath(TrackID.noTrack.path), .boolean(false)])
            Issue.record("unsupported scheme added")
        } catch { #expect(error.name == .notSupported) }
    }

    /// The known-id set is edited in place by AddTrack/RemoveTrack: an added id is accepted as
    /// AfterTrack and answered by GetTracksMetadata at once, a removed one no longer reaches the player.
    @Test func editsKeepTheKnownTrackSetCurrent() async throws {
        let fixture = try MPRISFixture()
        let trackList = fixture.proxy(MPRISNames.trackList)
        let song1 = ObjectPath("/org/linnet/test/track/1")
        try await trackList.call("GetTracksMetadata", [.array(.objectPath, [.objectPath(song1)])])  // warms the set
        try await trackList.call("AddTrack", [.string("http://radio/a.ogg"), .objectPath(song1), .boolean(false)])
        let added = ObjectPath("/org/linnet/test/added/1")
        try await trackList.call("AddTrack", [.string("http://radio/b.ogg"), .objectPath(added), .boolean(false)])
        let answered = try await trackList.call("GetTracksMetadata", [.array(.objectPath, [.objectPath(added)])])
        #expect(answered.first.map { if case .array(_, let maps) = $0 { maps.count } else { -1 } } == 1)
        try await trackList.call("RemoveTrack", [.objectPath(added)])
        try await trackList.call("RemoveTrack", [.objectPath(added)])  // no longer listed: no effect
        try await trackList.call("AddTrack", [.string("http://radio/c.ogg"), .objectPath(added), .boolean(false)])
        #expect(fixture.player.calls.values == [
            "AddTrack http://radio/a.ogg after /org/linnet/test/track/1 current false",
            "AddTrack http://radio/b.ogg after /org/linnet/test/added/1 current false",
            "RemoveTrack /org/linnet/test/added/1",
        ])
        #expect(try await trackList.property("Tracks").decode(as: [ObjectPath].self).contains(added) == false)
    }

    @Test func replacingTheListSignalsTrackListReplaced() async throws {
        let fixture = try MPRISFixture()
        try await fixture.clearSignals()
        let ids = [TrackID("/org/linnet/test/x/1")!, TrackID("/org/linnet/test/x/2")!]
        fixture.server.replaceTrackList(ids, current: ids[1])
        var changed = Metadata(trackID: ids[0], title: "Renamed")
        changed.artists = ["Someone"]
        fixture.server.trackMetadataChanged(changed)
        try await fixture.settle()
        let replaced = try #require(fixture.signals(named: "TrackListReplaced").first)
        #expect(replaced.arguments == [.array(.objectPath, [.objectPath("/org/linnet/test/x/1"), .objectPath("/org/linnet/test/x/2")]),
                                       .objectPath("/org/linnet/test/x/2")])
        let metadataChanged = try #require(fixture.signals(named: "TrackMetadataChanged").first)
        #expect(metadataChanged.arguments[0] == .objectPath("/org/linnet/test/x/1"))
        #expect(Metadata(dbusValue: metadataChanged.arguments[1]).title == "Renamed")
        #expect(fixture.recentChanges(MPRISNames.trackList).map(\.invalidated) == [["Tracks"]])
    }

    /// Encoded metadata is reused only while the handler answers the same: a change the handler
    /// made without TrackMetadataChanged still reaches the next GetTracksMetadata.
    @Test func getTracksMetadataAnswersChangedMetadataWithoutASignal() async throws {
        let fixture = try MPRISFixture()
        let trackList = fixture.proxy(MPRISNames.trackList)
        let request: [DBusValue] = [.array(.objectPath, [.objectPath("/org/linnet/test/track/1")])]
        func title() async throws -> String? {
            let reply = try await trackList.call("GetTracksMetadata", request)
            guard case .array(_, let maps)? = reply.first, let map = maps.first else { return nil }
            return Metadata(dbusValue: map).title
        }
        #expect(try await title() == "Song 1")
        #expect(try await title() == "Song 1")
        fixture.player.model.withLock { $0.tracks[0].title = "Renamed quietly" }
        #expect(try await title() == "Renamed quietly")
    }

    /// A position given with an edit is only a hint: a wrong one edits the list exactly as the
    /// search would, and each edit that changed the list invalidates Tracks once.
    @Test func editPositionHintsAreCheckedAndWrongOnesFallBackToTheSearch() async throws {
        let fixture = try MPRISFixture()
        try await fixture.clearSignals()
        let (one, two, three) = (TrackID("/org/linnet/test/track/1")!, TrackID("/org/linnet/test/track/2")!,
                                 TrackID("/org/linnet/test/track/3")!)
        let (a, b, c) = (TrackID("/org/linnet/test/new/a")!, TrackID("/org/linnet/test/new/b")!,
                         TrackID("/org/linnet/test/new/c")!)
        fixture.server.addTrack(Metadata(trackID: a, title: "A"), after: one, at: 1)  // right
        fixture.server.addTrack(Metadata(trackID: b, title: "B"), after: three, at: 0)  // wrong: after 3
        fixture.server.addTrack(Metadata(trackID: c, title: "C"), after: .noTrack, at: 7)  // wrong: the start
        #expect(fixture.server.currentState.trackList.tracks == [c, one, a, two, three, b])
        fixture.server.removeTrack(two, at: 3)  // right
        fixture.server.removeTrack(c, at: 4)  // wrong
        fixture.server.removeTrack(two, at: 2)  // no longer listed: nothing changes
        #expect(fixture.server.currentState.trackList.tracks == [one, a, three, b])
        try await fixture.settle()
        #expect(fixture.signals(named: "TrackAdded").count == 3)
        #expect(fixture.signals(named: "TrackRemoved").count == 3)
        #expect(fixture.recentChanges(MPRISNames.trackList).map(\.invalidated) == Array(repeating: ["Tracks"], count: 5))
        // The known-id set followed the removal: the player still knows track 2, the list does not.
        let answered = try await fixture.proxy(MPRISNames.trackList).call(
            "GetTracksMetadata", [.array(.objectPath, [two, one, three].map { .objectPath($0.path) })])
        guard case .array(_, let maps)? = answered.first else {
            Issue.record("GetTracksMetadata returned \(answered)")
            return
        }
        #expect(maps.map { Metadata(dbusValue: $0).trackID } == [one, three])
    }

    @Test func playlistsArePagedOrderedAndActivated() async throws {
        let fixture = try MPRISFixture()
        let playlists = fixture.proxy(MPRISNames.playlists)
        let reply = try await playlists.call("GetPlaylists", [.uint32(0), .uint32(10), .string("Alphabetical"), .boolean(false)])
        #expect(reply.first?.type.signature == "a(oss)")
        #expect(reply.first == .array(.structure([.objectPath, .string, .string]), [
            Playlist(id: "/org/linnet/test/playlist/evening", name: "Evening").dbusValue,
            Playlist(id: "/org/linnet/test/playlist/morning", name: "Morning", icon: "file:///tmp/sun.png").dbusValue,
        ]))
        let reversedPage = try await playlists.call("GetPlaylists", [.uint32(0), .uint32(1), .string("Alphabetical"), .boolean(true)])
        #expect(reversedPage.first.map { if case .array(_, let items) = $0 { items.count } else { -1 } } == 1)
        do {
            try await playlists.call("GetPlaylists", [.uint32(0), .uint32(1), .string("Played"), .boolean(false)])
            Issue.record("an ordering not offered was accepted")
        } catch { #expect(error.name == .invalidArgs) }

        #expect(try await playlists.property("ActivePlaylist") == .structure([.boolean(false), .structure([.objectPath("/"), .string(""), .string("")])]))
        try await fixture.clearSignals()
        try await playlists.call("ActivatePlaylist", [.objectPath("/org/linnet/test/playlist/evening")])
        try await fixture.settle()
        #expect(fixture.recentChanges(MPRISNames.playlists).map { Set($0.changed.keys) } == [["ActivePlaylist"]])
        do {
            try await playlists.call("ActivatePlaylist", [.objectPath("/org/linnet/test/playlist/none")])
            Issue.record("unknown playlist activated")
        } catch { #expect(error.name == .invalidArgs) }

        fixture.server.playlistChanged(Playlist(id: "/org/linnet/test/playlist/evening", name: "Late evening"))
        try await fixture.settle()
        #expect(fixture.signals(named: "PlaylistChanged").count == 1)
        #expect(try await playlists.property("ActivePlaylist") == .structure([.boolean(true),
            Playlist(id: "/org/linnet/test/playlist/evening", name: "Late evening").dbusValue]))
    }
}

/// GetTracksMetadata's rows are written from prepared maps, the Metadata property value by
/// value: both must be the same map for the same track.
@Suite struct TrackListRowsMatchThePropertyTests {
    @Test func getTracksMetadataAnswersWhatTheMetadataPropertyShows() async throws {
        let fixture = try MPRISFixture()
        let tagged = PreparedMetadataTests.fullyTagged()
        fixture.player.model.withLock { $0.tracks[0] = tagged }
        fixture.player.publishTrack()
        fixture.player.server.update { $0.trackList.tracks = [tagged.trackID!, TrackID("/org/linnet/test/track/2")!] }
        let property = try await fixture.proxy(MPRISNames.player).property("Metadata")
        let reply = try await fixture.proxy(MPRISNames.trackList).call("GetTracksMetadata", [
            .array(.objectPath, [.objectPath(tagged.trackID!.path), .objectPath("/org/linnet/test/track/2")]),
        ])
        guard case .array(_, let maps)? = reply.first, maps.count == 2 else {
            Issue.record("GetTracksMetadata returned \(reply)")
            return
        }
        #expect(maps[0] == property)
        #expect(maps[0] == tagged.dbusValue)
        #expect(Metadata(dbusValue: maps[0]) == tagged)
        #expect(Metadata(dbusValue: maps[1]).title == "Song 2")
    }
}
