/// The rule that keeps a flood of calls from flooding the log: per call site, the first
/// ``burst`` lines of a ``window`` are written and the rest are counted, then summed up in one
/// line when the window ends ("… 250 more in the last minute"). Errors and worse are never
/// folded. A value: time is passed in, so the rule is tested without a clock.
public struct LogFolding: Sendable {
    /// Where a log line comes from: one `logger.info(…)` in the source.
    public struct Site: Hashable, Sendable {
        public var file: String
        public var line: UInt

        /// The site at `line` of `file`.
        public init(file: String, line: UInt) {
            self.file = file
            self.line = line
        }
    }

    /// The lines of one site left out during one window.
    public struct Summary: Sendable, Hashable {
        public var site: Site
        /// How many lines were left out.
        public var count: Int
        /// The last line left out, to say what kind they were.
        public var example: String
        /// The window's length, for the wording.
        public var window: Duration

        /// A summary of `count` lines.
        public init(site: Site, count: Int, example: String, window: Duration) {
            self.site = site
            self.count = count
            self.example = example
            self.window = window
        }

        /// "… 250 more in the last minute, the last: <example>".
        public var text: String {
            let span = window == .seconds(60) ? "minute" : "\(window.components.seconds) s"
            return "… \(count) more in the last \(span), the last: \(example)"
        }
    }

    /// How long a site's count runs before it starts again.
    public let window: Duration
    /// Lines written per site per window.
    public let burst: Int
    private var windows: [Site: Window] = [:]

    private struct Window {
        var start: Duration
        var written = 1
        var folded = 0
        var example = ""
    }

    /// At most `burst` lines per site every `window`.
    public init(window: Duration = .seconds(60), burst: Int = 10) {
        self.window = window
        self.burst = burst
    }

    /// Whether the line `message` from `site` at `now` is written, and the summaries of every
    /// window that ended by `now` (to be written before it).
    public mutating func consider(_ message: String, from site: Site, at now: Duration) -> (write: Bool, ended: [Summary]) {
        let ended = endWindows(at: now)
        guard var current = windows[site] else {
            windows[site] = Window(start: now)
            return (true, ended)
        }
        if current.written < burst {
            current.written += 1
            windows[site] = current
            return (true, ended)
        }
        current.folded += 1
        current.example = message
        windows[site] = current
        return (false, ended)
    }

    /// Ends every window that is over at `now` and returns the summaries of those that left
    /// lines out. Windows are forgotten once over, so memory is bounded by the busy sites.
    public mutating func endWindows(at now: Duration) -> [Summary] {
        var summaries: [Summary] = []
        for (site, current) in windows where now - current.start >= window {
            windows[site] = nil
            if current.folded > 0 {
                summaries.append(Summary(site: site, count: current.folded, example: current.example, window: window))
            }
        }
        return summaries.sorted { ($0.site.file, $0.site.line) < ($1.site.file, $1.site.line) }
    }

    /// When the earliest window with lines left out ends: the one moment a summary is due.
    public var nextSummaryDue: Duration? {
        windows.values.filter { $0.folded > 0 }.map { $0.start + window }.min()
    }
}
