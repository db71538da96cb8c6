import Playback
import TestSupport

extension SoundServer {
    /// Polls the server (a round trip each time, as a mixer would; test side only) until one of
    /// its playback streams matches.
    func waitForStream(
        timeout: Duration = .seconds(20), _ matches: @escaping @Sendable (SinkInput) -> Bool
    ) async throws -> SinkInput {
        let deadline = ContinuousClock.now + timeout
        while true {
            let streams = try await offPool { try self.sinkInputs() }
            if let found = streams.first(where: matches) { return found }
            guard ContinuousClock.now < deadline else { throw MediaError("stream never matched; got \(streams)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
