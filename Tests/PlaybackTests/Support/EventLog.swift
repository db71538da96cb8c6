import Foundation
import Playback

/// Records an engine's events with the time each arrived, and waits for them with a timeout so a
/// hang fails the test instead of blocking the suite.
final class EventLog: @unchecked Sendable {
    struct Entry {
        let event: PlaybackEvent
        let at: ContinuousClock.Instant
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var reader: Task<Void, Never>?

    init(_ events: AsyncStream<PlaybackEvent>) {
        reader = Task { [weak self] in
            for await event in events {
                self?.append(Entry(event: event, at: .now))
            }
        }
    }

    private func append(_ entry: Entry) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    var all: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    var events: [PlaybackEvent] { all.map(\.event) }

    /// The first entry at or after `index` that matches, waiting up to `timeout` for it.
    @discardableResult
    func wait(
        for description: String, after index: Int = 0, timeout: Duration = .seconds(20),
        _ matches: (PlaybackEvent) -> Bool
    ) async throws -> (index: Int, entry: Entry) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let snapshot = all
            if index < snapshot.count,
               let found = snapshot[index...].firstIndex(where: { matches($0.event) }) {
                return (found, snapshot[found])
            }
            guard ContinuousClock.now < deadline else {
                throw MediaError("timed out waiting for \(description); got \(snapshot.map(\.event))")
            }
            // Test-side only: the engine itself never polls.
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension PlaybackEvent {
    var isEndOfStream: Bool { if case .endOfStream = self { true } else { false } }
    var isError: Bool { if case .error = self { true } else { false } }
    var isWarning: Bool { if case .warning = self { true } else { false } }

    func isState(_ state: PlaybackState) -> Bool {
        if case .stateChanged(state) = self { true } else { false }
    }

    func isTrackStart(_ uri: String) -> Bool {
        if case .trackStarted(uri) = self { true } else { false }
    }

    var metadata: (uri: String, TrackMetadata)? {
        if case .metadataChanged(let uri, let metadata) = self { (uri, metadata) } else { nil }
    }
}
