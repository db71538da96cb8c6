@testable import Playback
import Testing

/// A seek far past any track (MPRIS Seek/SetPosition take any Int64) must not overflow the
/// microseconds-to-nanoseconds conversion: it trapped and killed the daemon under the bus fuzzer.
@Suite struct SeekOverflowTests {
    @Test func hugeSeekPositionsSaturateInsteadOfTrapping() {
        #expect(ClockTime.nanoseconds(fromMicroseconds: .max) == .max)
        #expect(ClockTime.nanoseconds(fromMicroseconds: .max / 999) == .max)
        #expect(ClockTime.nanoseconds(fromMicroseconds: .min) == 0)
        #expect(ClockTime.nanoseconds(fromMicroseconds: 1_500_000) == 1_500_000_000)
    }
}
