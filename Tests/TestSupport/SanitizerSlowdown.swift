import Foundation

extension Duration {
    /// This wait stretched by `LINNET_TEST_TIMEOUT_SCALE` (a positive number), which
    /// scripts/check-sanitizers.sh sets because sanitized builds on a loaded machine run several
    /// times slower; unset, the wait is unchanged, so the normal suite keeps its limits.
    public var scaledForSanitizers: Duration {
        guard let text = ProcessInfo.processInfo.environment["LINNET_TEST_TIMEOUT_SCALE"],
              let scale = Double(text), scale > 0 else { return self }
        return self * scale
    }
}
