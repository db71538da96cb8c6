/// Which synced line is current at a position, and how long until the next one starts: the rule
/// behind `CurrentLyric`, as a value, so it is tested without a clock, a player or a bus.
///
/// Time is the track's: a line starts when the playback position reaches its stamp. The wall
/// time until then is the remaining track time divided by the rate. No deadline is given while
/// nothing advances the position (paused, stopped, a rate that is not positive) or while nobody
/// can see the line (the screen is locked or blank): whoever owns the timer arms none then.
public struct LyricTimeline: Sendable, Equatable {
    /// What is current and when that changes.
    public struct Moment: Sendable, Equatable {
        /// The index in ``LyricTimeline/lines`` of the line shown now; nil before the first line.
        public var lineIndex: Int?
        /// The words shown now; empty before the first line.
        public var text: String
        /// Wall time from now until the next line starts; nil when no timer should run.
        public var nextChange: Duration?

        /// A moment showing `lineIndex` (with its `text`) until `nextChange`.
        public init(lineIndex: Int?, text: String, nextChange: Duration?) {
            self.lineIndex = lineIndex
            self.text = text
            self.nextChange = nextChange
        }
    }

    /// The synced lines, sorted by time (as ``LRCParser`` returns them).
    public let lines: [Lyrics.SyncedLine]

    /// A timeline over `lines`, which must be sorted by time.
    public init(lines: [Lyrics.SyncedLine]) {
        self.lines = lines
    }

    /// The line current at `position` (microseconds into the track) and, when `playing` at a
    /// positive `rate` with the screen on, the wall time until the next line starts.
    ///
    /// Lines sharing a stamp: the last of them is current (the first ones were shown for no
    /// time at all), so equal stamps produce one change, not several.
    public func moment(atMicroseconds position: Int64, rate: Double, playing: Bool, screenOn: Bool) -> Moment {
        let next = firstIndex(after: position)
        let current = next > 0 ? next - 1 : nil
        let text = current.map { lines[$0].text } ?? ""
        guard playing, screenOn, rate.isFinite, rate > 0, next < lines.count else {
            return Moment(lineIndex: current, text: text, nextChange: nil)
        }
        let remaining = Double(lines[next].timeMicroseconds - position) / rate
        return Moment(lineIndex: current, text: text, nextChange: Self.wholeMilliseconds(atLeast: remaining))
    }

    /// The index of the first line starting after `position`: lines before it have begun.
    /// Binary search: a lyric has hundreds of lines and this runs at every line change and seek.
    private func firstIndex(after position: Int64) -> Int {
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].timeMicroseconds <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `microseconds` rounded up to whole milliseconds (the loop's timers count milliseconds, and
    /// a timer that fires before the line has begun only has to be armed again), at least 1 ms.
    static func wholeMilliseconds(atLeast microseconds: Double) -> Duration {
        let milliseconds = (microseconds / 1000).rounded(.up)
        // A day bounds the value: a timer further out is re-armed long before it matters.
        return .milliseconds(Int64(min(max(milliseconds, 1), 86_400_000)))
    }

    /// How long to wait when a timer fired before the next line began and the position had not
    /// moved at all since the timer was armed (a stream stalled while "playing"): the time still
    /// due, but at least a floor that doubles with each such wake-up in a row, from 4 ms up to
    /// one second, so a position that stands still never turns into a busy loop. (A position
    /// that moved but lags the timer just waits what is left.)
    public static func retryDelay(due: Duration, stalledWakeUps: Int) -> Duration {
        let floor = Duration.milliseconds(min(1000, 4 << min(max(stalledWakeUps - 1, 0), 8)))
        return max(due, floor)
    }
}
