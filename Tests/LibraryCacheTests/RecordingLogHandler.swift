import Logging
import Synchronization

/// Keeps every message logged through it, so a test can assert what the cache said (and how
/// often).
final class LogRecord: Sendable {
    private let messages = Mutex<[String]>([])

    var all: [String] { messages.withLock { $0 } }

    func count(containing text: String) -> Int { all.count { $0.contains(text) } }

    var logger: Logger {
        Logger(label: "test.library") { _ in RecordingLogHandler(record: self) }
    }

    fileprivate func append(_ message: String) { messages.withLock { $0.append(message) } }
}

private struct RecordingLogHandler: LogHandler {
    let record: LogRecord
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { record.append("\(event.level): \(event.message)") }
}
