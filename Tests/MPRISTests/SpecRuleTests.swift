import DBus
import MPRIS
import Testing
import TestSupport

/// Each rule of the MPRIS spec, exercised from outside the process through a real bus.
@Suite struct SpecRuleTests {
    @Test func positionNeverInPropertiesChangedAndSeekedOnlyOnSeeks() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        try await player.call("Play")
        try await player.call("Pause")
        try await player.call("Next")
        try await player.call("Seek", [.int64(3_000_000)])
        try await player.call("SetPosition", [.objectPath("/org/linnet/test/track/2"), .int64(1_000_000)])
        fixture.server.seeked(to: 500_000)  // a discontinuity the player reports itself (a loop restart)
        try await fixture.settle()
        for change in fixture.propertiesChanged(MPRISNames.player) {
            #expect(change.changed["Position"] == nil)
            #expect(!change.invalidated.contains("Position"))
        }
        // Play, Pause and Next sent no Seeked; the two seeks and the reported jump did.
        #expect(fixture.signals(named: "Seeked").map(\.arguments) == [[.int64(3_000_000)], [.int64(1_000_000)], [.int64(500_000)]])
    }

    @Test func trackChangeIsOneBatchedSignalWithMetadataStatusAndCapabilities() async throws {
        let fixture = try MPRISFixture()
        try await fixture.clearSignals()
        // Next to the last track: Metadata and CanGoNext change; one signal carries both.
        try await fixture.proxy(MPRISNames.player).call("Next")
        try await fixture.proxy(MPRISNames.player).call("Next")
        try await fixture.settle()
        let changes = fixture.recentChanges(MPRISNames.player)
        #expect(changes.count == 2)
        #expect(Set(changes[1].changed.keys) == ["Metadata", "CanGoNext"])
        #expect(changes[1].changed["CanGoNext"] == .boolean(false))
        let metadata = Metadata(dbusValue: changes[1].changed["Metadata"]!)
        #expect(metadata.title == "Song 3")

        // Status and track together, as a player changing track while starting playback does.
        fixture.server.update { state in
            state.player.playbackStatus = .playing
            state.player.metadata = Metadata(trackID: TrackID("/org/linnet/test/track/9"), title: "Other")
            state.player.canGoPrevious = false
        }
        try await fixture.settle()
        let last = try #require(fixture.recentChanges(MPRISNames.player).last)
        #expect(Set(last.changed.keys) == ["PlaybackStatus", "Metadata", "CanGoPrevious"])
    }

    @Test func unchangedValuesAreNeverResent() async throws {
        let fixture = try MPRISFixture()
        try await fixture.clearSignals()
        let metadata = fixture.server.currentState.player.metadata
        fixture.server.update { state in
            state.player.metadata = metadata
            state.player.volume = 1.0
            state.player.position = 42
        }
        try await fixture.proxy(MPRISNames.player).call("Pause")
        try await fixture.proxy(MPRISNames.player).call("Pause")
        try await fixture.settle()
        let changes = fixture.recentChanges(MPRISNames.player)
        #expect(changes.count == 1)
        #expect(changes.first.map { Set($0.changed.keys) } == ["PlaybackStatus"])
        #expect(fixture.recentChanges(MPRISNames.root).isEmpty)
    }

    @Test func tracksIsInvalidatedNeverSentWithAValue() async throws {
        let fixture = try MPRISFixture()
        try await fixture.clearSignals()
        let trackList = fixture.proxy(MPRISNames.trackList)
        try await trackList.call("AddTrack", [.string("file:///music/new.ogg"), .objectPath("/org/linnet/test/track/1"), .boolean(false)])
        try await trackList.call("RemoveTrack", [.objectPath("/org/linnet/test/track/3")])
        try await fixture.settle()
        let changes = fixture.recentChanges(MPRISNames.trackList)
        #expect(changes.count == 2)
        for change in changes {
            #expect(change.changed.isEmpty)
            #expect(change.invalidated == ["Tracks"])
        }
        let added = try #require(fixture.signals(named: "TrackAdded").first)
        #expect(Metadata(dbusValue: added.arguments[0]).title == "file:///music/new.ogg")
        #expect(added.arguments[1] == .objectPath("/org/linnet/test/track/1"))
        #expect(fixture.signals(named: "TrackRemoved").map(\.arguments) == [[.objectPath("/org/linnet/test/track/3")]])
        let tracks = try await trackList.property("Tracks")
        #expect(tracks == .array(.objectPath, [
            .objectPath("/org/linnet/test/track/1"), .objectPath("/org/linnet/test/added/1"), .objectPath("/org/linnet/test/track/2"),
        ]))
    }

    @Test func canControlNeverSignalled() async throws {
        let fixture = try MPRISFixture()
        try await fixture.clearSignals()
        fixture.server.update { $0.player.canControl = false }
        try await fixture.settle()
        #expect(fixture.recentChanges(MPRISNames.player).isEmpty)
        #expect(try await fixture.proxy(MPRISNames.player).property("CanControl") == .boolean(true))
    }

    @Test func rateZeroPausesAndRatesAreClampedToTheRange() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        try await player.call("Play")
        try await player.setProperty("Rate", to: .double(0))
        #expect(try await player.property("PlaybackStatus") == .string("Paused"))
        #expect(try await player.property("Rate") == .double(1))
        try await player.setProperty("Rate", to: .double(10))
        #expect(try await player.property("Rate") == .double(4))
        try await player.setProperty("Rate", to: .double(0.01))
        #expect(try await player.property("Rate") == .double(0.25))
        try await player.setProperty("Rate", to: .double(1.5))
        #expect(try await player.property("Rate") == .double(1.5))
        await #expect(throws: DBusError.self) { try await player.setProperty("Rate", to: .double(.nan)) }
        await #expect(throws: DBusError.self) { try await player.setProperty("Rate", to: .double(-.infinity)) }
        #expect(fixture.player.calls.values == ["Play", "Pause", "Rate 4.0", "Rate 0.25", "Rate 1.5"])
    }

    @Test func negativeVolumeBecomesZeroAndLoudIsAllowed() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        try await player.setProperty("Volume", to: .double(-0.5))
        #expect(try await player.property("Volume") == .double(0))
        try await player.setProperty("Volume", to: .double(1.5))
        #expect(try await player.property("Volume") == .double(1.5))
        await #expect(throws: DBusError.self) { try await player.setProperty("Volume", to: .double(.infinity)) }
    }

    /// −0.0 equals 0.0 to Swift but not on the wire: after a GetAll at 0.0 (whose reply may be
    /// reused), Set Volume −0.0 must not leave Get and GetAll answering different bytes.
    @Test func negativeZeroVolumeIsPublishedAsZero() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        let properties = fixture.proxy(.properties)
        try await player.setProperty("Volume", to: .double(0))
        _ = try await properties.call("GetAll", [.string(MPRISNames.player.rawValue)])
        try await player.setProperty("Volume", to: .double(-0.0))
        guard case .double(let volume) = try await player.property("Volume") else {
            Issue.record("Volume is not a double")
            return
        }
        #expect(volume.sign == .plus)
        let all = try await properties.call("GetAll", [.string(MPRISNames.player.rawValue)])
        guard case .dictionary(_, _, let entries)? = all.first,
              case .variant(.double(let published))? = entries.first(where: { $0.key == .string("Volume") })?.value
        else {
            Issue.record("GetAll has no Volume: \(all)")
            return
        }
        #expect(published.sign == .plus)
    }

    @Test func setPositionIgnoresStaleNegativeAndPastTheEndAndRejectsNoTrack() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        try await player.call("SetPosition", [.objectPath("/org/linnet/test/track/2"), .int64(1_000_000)])  // stale
        try await player.call("SetPosition", [.objectPath("/org/linnet/test/track/1"), .int64(-1)])
        try await player.call("SetPosition", [.objectPath("/org/linnet/test/track/1"), .int64(60_000_001)])
        #expect(fixture.player.calls.values.isEmpty)
        do {
            try await player.call("SetPosition", [.objectPath(TrackID.noTrack.path), .int64(0)])
            Issue.record("NoTrack was accepted")
        } catch {
            #expect(error.name == .invalidArgs)
        }
        try await player.call("SetPosition", [.objectPath("/org/linnet/test/track/1"), .int64(60_000_000)])
        #expect(fixture.player.calls.values == ["Seek 60000000"])
    }

    @Test func seekPastTheEndActsAsNextAndBeforeTheStartClampsToZero() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        try await player.call("Seek", [.int64(10_000_000)])
        try await player.call("Seek", [.int64(-30_000_000)])
        try await player.call("Seek", [.int64(61_000_000)])
        try await player.call("Seek", [.int64(.max)])  // overflow is past the end too
        #expect(fixture.player.calls.values == ["Seek 10000000", "Seek 0", "Next", "Next"])
        #expect(try await player.property("Metadata")["xesam:title"] == .string("Song 3"))
    }

    @Test func nextAndPreviousKeepAStoppedPlayerStopped() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        try await player.call("Next")
        #expect(try await player.property("PlaybackStatus") == .string("Stopped"))
        try await player.call("Previous")
        #expect(try await player.property("PlaybackStatus") == .string("Stopped"))
    }

    @Test func metadataTypesAreWhatClientsNeed() async throws {
        let fixture = try MPRISFixture()
        let metadata = try await fixture.proxy(MPRISNames.player).property("Metadata")
        #expect(metadata.type.signature == "a{sv}")
        #expect(metadata["mpris:trackid"]?.type == .objectPath)
        #expect(metadata["mpris:length"]?.type == .int64)
        #expect(metadata["xesam:artist"] == .array(.string, [.string("Artist 1"), .string("Guest")]))
        #expect(metadata["xesam:genre"]?.type == .array(.string))
        #expect(metadata["xesam:trackNumber"]?.type == .int32)
        fixture.server.update { $0.player.metadata = .empty }
        // No track: an empty map, still typed a{sv}.
        #expect(try await fixture.proxy(MPRISNames.player).property("Metadata") == .dictionary(key: .string, value: .variant, []))
    }

    @Test func trackIDsUnderOrgMprisAreRefused() {
        #expect(TrackID("/org/mpris/MediaPlayer2/track/1") == nil)
        #expect(TrackID("/org/linnet/track/1") != nil)
        #expect(TrackID.noTrack.path == "/org/mpris/MediaPlayer2/TrackList/NoTrack")
    }

    @Test func wrongTypesAndReadOnlyPropertiesGetTheRightErrors() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        do {
            try await player.setProperty("Volume", to: .string("loud"))
            Issue.record("wrong type accepted")
        } catch { #expect(error.name == .invalidArgs) }
        do {
            try await player.setProperty("LoopStatus", to: .string("Forever"))
            Issue.record("unknown loop status accepted")
        } catch { #expect(error.name == .invalidArgs) }
        do {
            try await player.setProperty("PlaybackStatus", to: .string("Playing"))
            Issue.record("read-only property written")
        } catch { #expect(error.name == .propertyReadOnly) }
        do {
            try await player.setProperty("Position", to: .int64(5))
            Issue.record("read-only property written")
        } catch { #expect(error.name == .propertyReadOnly) }
        #expect(fixture.player.calls.values.isEmpty)
    }

    @Test func withoutCanControlSettersAndControlsRefuseAndDoNothing() async throws {
        let fixture = try MPRISFixture(canControl: false)
        let player = fixture.proxy(MPRISNames.player)
        for (name, value) in [("Volume", DBusValue.double(0.3)), ("LoopStatus", .string("Track")),
                              ("Shuffle", .boolean(true)), ("Rate", .double(2))] {
            do {
                try await player.setProperty(MemberName(rawValue: name)!, to: value)
                Issue.record("\(name) was set without CanControl")
            } catch { #expect(error.name == .notSupported) }
        }
        for method in ["PlayPause", "Stop"] {
            do {
                try await player.call(MemberName(rawValue: method)!)
                Issue.record("\(method) succeeded without CanControl")
            } catch { #expect(error.name == .notSupported) }
        }
        // "should have no effect": Play, Next and Seek answer but do nothing.
        try await player.call("Play")
        try await player.call("Next")
        try await player.call("Seek", [.int64(1)])
        #expect(fixture.player.calls.values.isEmpty)
        #expect(try await player.property("CanControl") == .boolean(false))
    }

    @Test func openUriChecksTheSchemeAndPassesPlayerErrorsOn() async throws {
        let fixture = try MPRISFixture()
        let player = fixture.proxy(MPRISNames.player)
        do {
            try await player.call("OpenUri", [.string("ftp://host/a.ogg")])
            Issue.record("unsupported scheme accepted")
        } catch { #expect(error.name == .notSupported) }
        do {
            try await player.call("OpenUri", [.string("no scheme")])
            Issue.record("non-URI accepted")
        } catch { #expect(error.name == .invalidArgs) }
        do {
            try await player.call("OpenUri", [.string("file:///a.txt")])
            Issue.record("player error lost")
        } catch { #expect(error.name == .invalidArgs && error.message == "not an ogg file") }
        #expect(fixture.player.calls.values == ["OpenUri file:///a.txt"])
    }
}
