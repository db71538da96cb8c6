import Dispatch
public import Logging
import Synchronization

/// A log handler that writes through `Upstream` under ``LogFolding``: lines below `error` from
/// one call site are folded past a burst per window, and a summary is written when the window
/// ends. Errors and critical lines always pass.
///
/// Handlers made from one ``LogRateLimiter`` share its counts, whatever their labels. Not
/// generic over its upstream, for the reason ``CredentialScrubbingLogHandler`` gives.
public struct RateLimitedLogHandler: LogHandler {
    /// The handler lines are written through.
    public var upstream: any LogHandler
    private let limiter: LogRateLimiter

    /// `upstream` limited by `limiter`.
    public init(_ upstream: any LogHandler, limiter: LogRateLimiter) {
        self.upstream = upstream
        self.limiter = limiter
    }

    public var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        guard event.level < .error else {
            upstream.log(event: event)
            return
        }
        let upstream = self.upstream
        if limiter.admit(event, write: { upstream.log(event: $0) }) { upstream.log(event: event) }
    }
}

/// The shared counts behind ``RateLimitedLogHandler``s, and the one-shot timer that writes a
/// summary when a window with folded lines ends (armed only then: an idle process has no timer).
public final class LogRateLimiter: Sendable {
    private struct Writer {
        var level: Logger.Level
        var write: @Sendable (LogEvent) -> Void
    }

    private struct State {
        var folding: LogFolding
        /// How to write each site's summary: the level and handler of its last folded line.
        var writers: [LogFolding.Site: Writer] = [:]
        var timerArmed = false
    }

    private let state: Mutex<State>
    private let origin = ContinuousClock.now
    private let timerQueue = DispatchQueue(label: "linnet.log-summaries")

    /// A limiter with `folding`'s window and burst.
    public init(_ folding: LogFolding = LogFolding()) {
        state = Mutex(State(folding: folding))
    }

    /// Whether `event` is to be written now; summaries of ended windows are written first.
    func admit(_ event: LogEvent, write: @escaping @Sendable (LogEvent) -> Void) -> Bool {
        let site = LogFolding.Site(file: event.file, line: event.line)
        let now = ContinuousClock.now - origin
        let (decision, due, armTimerIn) = state.withLock { state -> (Bool, [(LogFolding.Summary, Writer?)], Duration?) in
            let (writes, ended) = state.folding.consider(event.message.description, from: site, at: now)
            let due = ended.map { ($0, state.writers.removeValue(forKey: $0.site)) }
            if !writes { state.writers[site] = Writer(level: event.level, write: write) }
            var arm: Duration?
            if !state.timerArmed, let next = state.folding.nextSummaryDue {
                state.timerArmed = true
                arm = max(.zero, next - now)
            }
            return (writes, due, arm)
        }
        Self.write(due)
        if let armTimerIn { armTimer(after: armTimerIn) }
        return decision
    }

    private func armTimer(after delay: Duration) {
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        timerQueue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            self?.flush()
        }
    }

    /// Writes the summaries that are due and re-arms for the next, if any.
    private func flush() {
        let now = ContinuousClock.now - origin
        let (due, next) = state.withLock { state -> ([(LogFolding.Summary, Writer?)], Duration?) in
            let due = state.folding.endWindows(at: now).map { ($0, state.writers.removeValue(forKey: $0.site)) }
            let next = state.folding.nextSummaryDue
            state.timerArmed = next != nil
            return (due, next.map { max(.zero, $0 - now) })
        }
        Self.write(due)
        if let next { armTimer(after: next) }
    }

    private static func write(_ summaries: [(LogFolding.Summary, Writer?)]) {
        for (summary, writer) in summaries {
            guard let writer else { continue }
            writer.write(LogEvent(
                level: writer.level, message: "\(summary.text)", metadata: nil, source: nil,
                file: summary.site.file, function: "", line: summary.site.line))
        }
    }
}
