import DBus
import Foundation
import MPRIS
import Synchronization
import TestSupport

/// A small in-test player behind the MPRIS protocols: a list of tracks, a current index and a
/// status, with the semantics a real player has (Next keeps a paused player paused, and so on).
/// It records every command the server passes on.
final class TestPlayer: MPRISRootHandler, MPRISPlayerHandler, MPRISTrackListHandler, MPRISPlaylistsHandler, Sendable {
    struct Model {
        var tracks: [Metadata]
        var index = 0
        var addedCount = 0
    }

    let model: Mutex<Model>
    let calls = Recorder<String>()
    private let serverSlot = Mutex<MPRISServer?>(nil)
    static let playlists = [
        Playlist(id: "/org/linnet/test/playlist/morning", name: "Morning", icon: "file:///tmp/sun.png"),
        Playlist(id: "/org/linnet/test/playlist/evening", name: "Evening"),
    ]

    init() {
        let tracks = (1...3).map { number in
            var metadata = Metadata(
                trackID: TrackID("/org/linnet/test/track/\(number)")!, title: "Song \(number)",
                artists: ["Artist \(number)", "Guest"], album: "Album", length: Int64(number) * 60_000_000)
            metadata.trackNumber = Int32(number)
            metadata.genres = ["Jazz"]
            metadata.url = "file:///music/\(number).ogg"
            return metadata
        }
        model = Mutex(Model(tracks: tracks))
    }

    var server: MPRISServer { serverSlot.withLock { $0! } }

    /// Creates the server with this player behind every interface, publishing the first track.
    func makeServer(connection: DBusConnection, canControl: Bool = true) -> MPRISServer {
        var state = MPRISState(identity: "Test Player", desktopEntry: "test-player")
        state.root.supportedURISchemes = ["file", "http"]
        state.root.supportedMIMETypes = ["audio/ogg"]
        state.player.minimumRate = 0.25
        state.player.maximumRate = 4
        state.player.canControl = canControl
        state.trackList.canEditTracks = true
        state.playlists.playlistCount = UInt32(Self.playlists.count)
        state.playlists.orderings = [.alphabetical, .userDefined]
        let server = MPRISServer(
            connection: connection, state: state, root: self, player: self, trackList: self, playlists: self)
        serverSlot.withLock { $0 = server }
        publishTrack()
        let ids = model.withLock { $0.tracks.compactMap(\.trackID) }
        server.update { $0.trackList.tracks = ids }
        return server
    }

    /// Publishes the current track and the capabilities that follow from it.
    func publishTrack() {
        let (metadata, index, count) = model.withLock { ($0.tracks[$0.index], $0.index, $0.tracks.count) }
        server.update { state in
            state.player.metadata = metadata
            state.player.position = 0
            state.player.canGoNext = index < count - 1 || state.player.loopStatus == .playlist
            state.player.canGoPrevious = index > 0 || state.player.loopStatus == .playlist
            state.player.canPlay = true
            state.player.canPause = true
            state.player.canSeek = true
        }
    }

    func raise() { calls.record("Raise") }
    func quit() { calls.record("Quit") }

    func play() {
        calls.record("Play")
        server.update { $0.player.playbackStatus = .playing }
    }

    func pause() {
        calls.record("Pause")
        server.update { $0.player.playbackStatus = .paused }
    }

    func playPause() {
        calls.record("PlayPause")
        server.update { $0.player.playbackStatus = $0.player.playbackStatus == .playing ? .paused : .playing }
    }

    func stop() {
        calls.record("Stop")
        server.update { state in
            state.player.playbackStatus = .stopped
            state.player.position = 0
        }
    }

    func next() {
        calls.record("Next")
        model.withLock { $0.index = min($0.index + 1, $0.tracks.count - 1) }
        publishTrack()
    }

    func previous() {
        calls.record("Previous")
        model.withLock { $0.index = max($0.index - 1, 0) }
        publishTrack()
    }

    func seek(to position: Microseconds) {
        calls.record("Seek \(position)")
        server.update { $0.player.position = position }
    }

    func openURI(_ uri: String) throws {
        calls.record("OpenUri \(uri)")
        guard uri.hasSuffix(".ogg") else { throw DBusError(.invalidArgs, "not an ogg file") }
    }

    func setLoopStatus(_ status: LoopStatus) {
        calls.record("LoopStatus \(status.rawValue)")
        server.update { $0.player.loopStatus = status }
    }

    func setShuffle(_ shuffle: Bool) {
        calls.record("Shuffle \(shuffle)")
        server.update { $0.player.shuffle = shuffle }
    }

    func setRate(_ rate: Double) {
        calls.record("Rate \(rate)")
        server.update { $0.player.rate = rate }
    }

    func setVolume(_ volume: Double) {
        calls.record("Volume \(volume)")
        server.update { $0.player.volume = volume }
    }

    func metadata(for tracks: [TrackID]) -> [Metadata] {
        let all = model.withLock { $0.tracks }
        return tracks.compactMap { id in all.first { $0.trackID == id } }
    }

    func addTrack(uri: String, after: TrackID, setAsCurrent: Bool) throws {
        calls.record("AddTrack \(uri) after \(after) current \(setAsCurrent)")
        let metadata = model.withLock { model -> Metadata in
            model.addedCount += 1
            var metadata = Metadata(trackID: TrackID("/org/linnet/test/added/\(model.addedCount)")!, title: uri)
            metadata.url = uri
            let index = after.isNoTrack
                ? 0 : (model.tracks.firstIndex { $0.trackID == after }.map { $0 + 1 } ?? model.tracks.count)
            model.tracks.insert(metadata, at: index)
            return metadata
        }
        server.addTrack(metadata, after: after)
    }

    func removeTrack(_ track: TrackID) {
        calls.record("RemoveTrack \(track)")
        model.withLock { $0.tracks.removeAll { $0.trackID == track } }
        server.removeTrack(track)
    }

    func goTo(_ track: TrackID) {
        calls.record("GoTo \(track)")
        model.withLock { model in
            if let index = model.tracks.firstIndex(where: { $0.trackID == track }) { model.index = index }
        }
        publishTrack()
    }

    func activatePlaylist(_ id: ObjectPath) throws {
        guard let playlist = Self.playlists.first(where: { $0.id == id }) else {
            throw DBusError(.invalidArgs, "no playlist \(id)")
        }
        calls.record("ActivatePlaylist \(playlist.name)")
        server.update { $0.playlists.activePlaylist = playlist }
    }

    func playlists(index: Int, maxCount: Int, order: PlaylistOrdering, reversed: Bool) -> [Playlist] {
        var list = order == .alphabetical ? Self.playlists.sorted { $0.name < $1.name } : Self.playlists
        if reversed { list.reverse() }
        return Array(list.dropFirst(index).prefix(maxCount))
    }
}
