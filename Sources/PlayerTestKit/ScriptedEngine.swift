public import Playback
import Synchronization

/// A ``PlaybackEngine`` whose events a test sends and whose commands it records, for driving the
/// real player owner (and its MPRIS bridge) without GStreamer.
public final class ScriptedEngine: PlaybackEngine {
    /// The events sent with ``emit(_:)``.
    public let events: AsyncStream<PlaybackEvent>
    private let continuation: AsyncStream<PlaybackEvent>.Continuation
    private let log = Mutex<[String]>([])
    private let reportedPosition = Mutex<Int64?>(nil)

    /// An engine with nothing recorded.
    public init() {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Every command received, in order, as text: `load(uri)`, `play`, `setNext(nil)`, ….
    public var commands: [String] { log.withLock { $0 } }
    /// Reports `event` as the engine would.
    public func emit(_ event: PlaybackEvent) { continuation.yield(event) }
    /// What ``position()`` answers from now on (nil: the engine cannot tell, as while prerolling).
    public func report(position: Int64?) { reportedPosition.withLock { $0 = position } }
    private func record(_ command: String) { log.withLock { $0.append(command) } }

    public func load(_ uri: String) { record("load(\(uri))") }
    public func setNext(_ uri: String?) { record("setNext(\(uri ?? "nil"))") }
    public func play() { record("play") }
    public func pause() { record("pause") }
    public func stop() { record("stop") }
    public func seek(toMicroseconds microseconds: Int64) { record("seek") }
    public func setRate(_ rate: Double) { record("setRate(\(rate))") }
    public func setVolume(_ volume: Double) { record("setVolume(\(volume))") }
    public func setMuted(_ muted: Bool) { record("setMuted(\(muted))") }
    public func position() -> Int64? { reportedPosition.withLock { $0 } }
    public func duration() -> Int64? { nil }
    public func shutdown() { continuation.finish() }
}
