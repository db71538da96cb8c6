import Playback
import Synchronization

/// An engine whose events the test sends and whose commands it records.
final class ScriptedEngine: PlaybackEngine {
    let events: AsyncStream<PlaybackEvent>
    private let continuation: AsyncStream<PlaybackEvent>.Continuation
    private let log = Mutex<[String]>([])

    init() {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    var commands: [String] { log.withLock { $0 } }
    func emit(_ event: PlaybackEvent) { continuation.yield(event) }
    private func record(_ command: String) { log.withLock { $0.append(command) } }

    func load(_ uri: String) { record("load(\(uri))") }
    func setNext(_ uri: String?) { record("setNext(\(uri ?? "nil"))") }
    func play() { record("play") }
    func pause() { record("pause") }
    func stop() { record("stop") }
    func seek(toMicroseconds microseconds: Int64) { record("seek") }
    func setRate(_ rate: Double) { record("setRate(\(rate))") }
    func setVolume(_ volume: Double) { record("setVolume(\(volume))") }
    func setMuted(_ muted: Bool) { record("setMuted(\(muted))") }
    func position() -> Int64? { nil }
    func duration() -> Int64? { nil }
    func shutdown() { continuation.finish() }
}
