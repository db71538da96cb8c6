import DBus
import MPRIS
import PlayerCore

/// MPRIS as the player sees it: each handler call becomes a ``PlayerInput``, and the core's
/// refusals become D-Bus errors here. The MPRIS server calls these on the loop thread, so each
/// command is handled (and published) before its reply goes out.
final class MPRISBridge: Sendable {
    /// Set once, in the player's initialiser, before the server can call anything; weak because
    /// the player owns the server that owns this bridge.
    nonisolated(unsafe) weak var player: PlayerController?
    /// GetTracksMetadata's rows, kept while their entries and facts stay the same.
    private let preparedRows = PreparedMetadataCache()

    private func command(_ command: PlayerCommand) {
        player?.send(.command(command))
    }

    /// Sends a command that may be refused, answering a refusal with its D-Bus error.
    private func refusable(_ command: PlayerCommand) throws(DBusError) {
        do {
            try player?.sendRefusable(command)
        } catch {
            switch error {
            case .queueFull(let limit):
                throw DBusError(.limitsExceeded, "the queue is full (\(limit) tracks); remove some first")
            }
        }
    }
}

extension MPRISBridge: MPRISRootHandler {
    func quit() {
        player?.requestQuit()
    }
}

extension MPRISBridge: MPRISPlayerHandler {
    func play() { command(.play) }
    func pause() { command(.pause) }
    func playPause() { command(.playPause) }
    func stop() { command(.stop) }
    func next() { command(.next) }
    func previous() { command(.previous) }
    func seek(to position: Microseconds) { command(.seek(to: .microseconds(position))) }
    func setLoopStatus(_ status: LoopStatus) { command(.setRepeatMode(RepeatMode(status))) }
    func setShuffle(_ shuffle: Bool) { command(.setShuffle(shuffle)) }
    func setRate(_ rate: Double) { command(.setRate(rate)) }
    func setVolume(_ volume: Double) { command(.setVolume(volume)) }

    func openURI(_ uri: String) throws {
        try refusable(.open(NewTrack(uri: try MediaAdmission.admit(uri))))
    }

    func currentPosition() -> Microseconds? {
        player?.currentPosition()
    }
}

extension MPRISBridge: MPRISTrackListHandler {
    func metadata(for tracks: [TrackID]) -> [Metadata] {
        player?.read { machine in
            tracks.compactMap { track in
                guard let id = track.entryID, let entry = machine.queue.entry(id: id) else { return nil }
                return Metadata(TrackItem(entry: entry, facts: machine.tracks[id] ?? TrackFacts()))
            }
        } ?? []
    }

    func writeMetadata(for tracks: [TrackID], to writer: inout DBusMessageWriter) {
        guard let player else { return }
        player.read { machine in
            for track in tracks where writer.isWriting {
                guard let id = track.entryID, let entry = machine.queue.entry(id: id) else { continue }
                let facts = machine.tracks[id] ?? TrackFacts()
                if let map = preparedRows.keptMap(for: entry, facts: facts) {
                    writer.append(map)
                } else {
                    Metadata(TrackItem(entry: entry, facts: facts)).write(to: &writer)
                }
            }
        }
    }

    func addTrack(uri: String, after: TrackID, setAsCurrent: Bool) throws {
        let track = NewTrack(uri: try MediaAdmission.admit(uri))
        try refusable(.add(track, after: after.isNoTrack ? nil : after.entryID, makeCurrent: setAsCurrent))
    }

    func removeTrack(_ track: TrackID) {
        guard let id = track.entryID else { return }
        command(.remove(entryID: id))
    }

    func goTo(_ track: TrackID) {
        guard let id = track.entryID else { return }
        command(.goTo(entryID: id))
    }
}

extension MPRISBridge: MPRISPlaylistsHandler {
    func activatePlaylist(_ id: ObjectPath) throws {
        guard let player else { throw DBusError(.unknownObject, "linnet is shutting down") }
        try player.activatePlaylist(id)
    }

    func playlists(index: Int, maxCount: Int, order: PlaylistOrdering, reversed: Bool) -> [Playlist] {
        player?.playlists(index: index, maxCount: maxCount, order: order, reversed: reversed) ?? []
    }
}
