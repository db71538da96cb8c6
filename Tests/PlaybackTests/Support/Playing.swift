import Playback

/// Plays what is loaded to its end, then stops so capture files are closed and complete.
func playToEnd(_ engine: GStreamerEngine, _ log: EventLog, timeout: Duration = .seconds(20)) async throws {
    let start = log.all.count
    engine.play()
    let end = try await log.wait(for: "end of stream", after: start, timeout: timeout) { $0.isEndOfStream }
    engine.stop()
    try await log.wait(for: "stopped", after: end.index) { $0.isState(.stopped) }
}
