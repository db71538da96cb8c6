import Glibc
public import Timekeeping

/// The machine's time zone by the C library's rules: `TZ` when set, else `/etc/localtime`, with
/// the system's tz database (Debian's `tzdata`, updated with the system).
///
/// Foundation's zone rules need FoundationInternationalization and ICU: several MiB resident,
/// and a library the statically linked build cannot load at all (every zone was then GMT, and an
/// alarm set for 07:30 in New York rang at 07:30 UTC).
public struct SystemTimeZone: ZoneRules {
    /// How far ahead ``nextOffsetChange(after:)`` looks, and its step: zones change offset at
    /// most a few times a year, never twice within a step.
    private static let horizon = 8 * 86_400
    private static let step = 900

    /// The zone in force now: `TZ` and `/etc/localtime` are read again (glibc re-reads the file
    /// only when it changed), so a zone changed while linnet runs applies at once.
    public init() {
        tzset()
    }

    public func secondsFromGMT(at instant: WallInstant) -> Int {
        Self.offset(at: Self.seconds(instant))
    }

    public func nextOffsetChange(after instant: WallInstant) -> WallInstant? {
        let start = Self.seconds(instant)
        let initial = Self.offset(at: start)
        var before = start
        var probe = start
        while probe - start < Self.horizon {
            probe += Self.step
            guard Self.offset(at: probe) == initial else {
                // The change lies in (before, probe]: narrow it to the second.
                var (low, high) = (before, probe)
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if Self.offset(at: middle) == initial { low = middle } else { high = middle }
                }
                return WallInstant(secondsSinceEpoch: Double(high))
            }
            before = probe
        }
        return nil
    }

    /// Whole seconds of `instant`, kept where `time_t` and the search cannot overflow.
    private static func seconds(_ instant: WallInstant) -> Int {
        let value = instant.secondsSinceEpoch.rounded(.down)
        guard value.isFinite else { return 0 }
        return Int(max(-1e15, min(1e15, value)))
    }

    /// `tm_gmtoff` of `seconds` in the local zone; 0 if the C library cannot convert it.
    private static func offset(at seconds: Int) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }
}
