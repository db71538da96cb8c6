// A "now playing" presence on the Linux desktop in a few lines: run it under a session bus, then
// try `playerctl -p nowplayingexample metadata`, `playerctl play-pause`, `playerctl next`.
import Dispatch
import MPRIS

let songs = [
    NowPlayingInfo(title: "Morning Light", artists: ["The Examples"], album: "Demo", duration: .seconds(184)),
    NowPlayingInfo(title: "Evening Rain", artists: ["The Examples"], album: "Demo", duration: .seconds(211)),
]

do {
    let session = try NowPlayingSession(
        name: "nowplayingexample", identity: "Now Playing Example", supportedRates: 0.5...2)
    let current = Counter()

    session.commands.togglePlayPause.addHandler {
        session.playbackState = session.playbackState == .playing ? .paused : .playing
        print("now \(session.playbackState)")
    }
    session.commands.nextTrack.addHandler {
        session.nowPlaying = songs[current.advance(by: 1, count: songs.count)]
    }
    session.commands.previousTrack.addHandler {
        session.nowPlaying = songs[current.advance(by: -1, count: songs.count)]
    }
    session.commands.changePlaybackPosition.addHandler { position in
        session.nowPlaying?.elapsedTime = position
    }
    session.commands.changeVolume.addHandler { session.volume = $0 }

    session.nowPlaying = songs[0]
    session.playbackState = .playing
    let name = try session.start()
    print("on the bus as \(name); press Ctrl-C to quit")
    dispatchMain()
} catch {
    print("cannot start: \(error)")
}

/// The index of the current song, shared with the command handlers.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = DispatchQueue(label: "counter")

    func advance(by step: Int, count: Int) -> Int {
        lock.sync {
            value = (value + step + count) % count
            return value
        }
    }
}
