import LinnetCore
import Logging
import Synchronization
import Testing

/// Rate-limited logging (issue 16): a flood of calls from one site writes a burst and one
/// summary per window; errors always pass; credentials never reach the writer.
@Suite struct LogFoldingTests {
    private let pomodoro = LogFolding.Site(file: "ClockService+Timers.swift", line: 98)
    private let sleep = LogFolding.Site(file: "ClockService+Timers.swift", line: 26)

    @Test func aFloodFromOneSiteIsFoldedIntoOneSummaryPerWindow() {
        var folding = LogFolding(window: .seconds(60), burst: 3)
        var written: [String] = []
        for index in 0..<253 {
            let (write, ended) = folding.consider("Pomodoro \(index)", from: pomodoro, at: .milliseconds(index * 10))
            #expect(ended.isEmpty)
            if write { written.append("Pomodoro \(index)") }
        }
        #expect(written == ["Pomodoro 0", "Pomodoro 1", "Pomodoro 2"])
        // Another site has its own count.
        #expect(folding.consider("sleep timer", from: sleep, at: .seconds(5)).write)
        #expect(folding.nextSummaryDue == .seconds(60))
        #expect(folding.endWindows(at: .seconds(59)).isEmpty)
        let summaries = folding.endWindows(at: .seconds(60))
        #expect(summaries == [LogFolding.Summary(site: pomodoro, count: 250, example: "Pomodoro 252", window: .seconds(60))])
        #expect(summaries.first?.text == "… 250 more in the last minute, the last: Pomodoro 252")
        #expect(folding.nextSummaryDue == nil, "the sleep site folded nothing: no summary is due")
        // A new window starts afresh.
        #expect(folding.consider("Pomodoro again", from: pomodoro, at: .seconds(61)).write)
    }

    @Test func aSummaryComesWithTheNextLineWhenItsWindowIsOver() {
        var folding = LogFolding(window: .seconds(2), burst: 1)
        #expect(folding.consider("a", from: pomodoro, at: .zero).write)
        #expect(!folding.consider("b", from: pomodoro, at: .seconds(1)).write)
        let (write, ended) = folding.consider("c", from: sleep, at: .seconds(3))
        #expect(write)
        #expect(ended.map(\.text) == ["… 1 more in the last 2 s, the last: b"])
    }

    @Test func theHandlerFoldsInfoLinesButNeverErrorsAndScrubsCredentials() throws {
        let recorder = RecordingLogHandler()
        let limiter = LogRateLimiter(LogFolding(window: .seconds(3600), burst: 2))
        var logger = Logger(label: "test") { _ in
            RateLimitedLogHandler(CredentialScrubbingLogHandler(recorder), limiter: limiter)
        }
        logger.logLevel = .trace
        for index in 0..<100 {
            logger.info("Pomodoro \(index) http://user:s3cret@radio.example/live")
            logger.error("cannot save \(index)")
        }
        let lines = recorder.recorded.store.withLock { $0 }
        #expect(lines.filter { $0.hasPrefix("Pomodoro") } == [
            "Pomodoro 0 http://radio.example/live", "Pomodoro 1 http://radio.example/live",
        ])
        #expect(lines.filter { $0.hasPrefix("cannot save") }.count == 100)
        #expect(!lines.contains { $0.contains("s3cret") })
    }
}

/// A log handler that keeps the messages it is given (copies share them).
private struct RecordingLogHandler: LogHandler {
    final class Lines: Sendable {
        let store = Mutex<[String]>([])
    }

    let recorded = Lines()
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorded.store.withLock { $0.append(event.message.description) }
    }
}
