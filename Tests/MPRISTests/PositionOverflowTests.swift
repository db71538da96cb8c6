import MPRIS
import Testing

/// Regression: a client seeking to Int64.max in a track of unknown length made the extrapolated
/// Position overflow and trap, killing the player (found by the bus fuzzer).
@Suite struct PositionOverflowTests {
    @Test func extrapolatedPositionSaturatesInsteadOfTrapping() async throws {
        var state = PlayerState()
        state.playbackStatus = .playing
        state.rate = 4
        state.position = .max - 1
        try await Task.sleep(for: .milliseconds(5))
        #expect(state.position == .max)
        state.position = .min
        #expect(state.position == 0)
    }

    @Test func outOfRangeRatesProduceFiniteAdvances() {
        #expect(Double.nan.clampedToMicroseconds == 0)
        #expect(Double.infinity.clampedToMicroseconds == .max)
        #expect((-Double.infinity).clampedToMicroseconds == .min)
        #expect(1.5e6.clampedToMicroseconds == 1_500_000)
    }
}
