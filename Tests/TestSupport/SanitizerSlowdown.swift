import Foundation

extension Duration {
    /// This wait stretched by `LINNET_TEST_TIMEOUT_SCALE` (a positive number), which
    /// scripts/check-sanitizers.sh sets because sanitized builds on a loaded machine run several
    /// times slower, and scripts/run-tests.sh because CI machines are shared; unset (a test run
    /// by hand), the wait is unchanged.
    public var scaledForSanitizers: Duration {
        guard let text = ProcessInfo.processInfo.environment["LINNET_TEST_TIMEOUT_SCALE"],
              let scale = Double(text), scale > 0 else { return self }
        return self * scale
    }
}
