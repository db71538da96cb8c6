/// A small, seedable random number generator (SplitMix64) whose whole state is one `UInt64`.
///
/// The play queue stores it so that a saved queue resumes with the same future shuffle order, and
/// tests pass fixed seeds. Bounded numbers and shuffles are implemented here rather than with the
/// standard library's `random(in:using:)`/`shuffle(using:)`, whose algorithms are not promised to
/// stay the same across Swift releases; a saved seed must mean the same order after an upgrade.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Codable, Equatable {
    /// The generator's entire state; advancing the generator changes it.
    public private(set) var state: UInt64

    /// Creates a generator that produces a fixed sequence for `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// Returns a uniformly distributed number in `0..<bound`; `bound` must be positive.
    ///
    /// Lemire's multiply-and-reject method: unbiased, and usually a single draw.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// Shuffles `elements` in place uniformly (Fisher–Yates).
    public mutating func shuffle<Element>(_ elements: inout [Element]) {
        guard elements.count > 1 else { return }
        for index in stride(from: elements.count - 1, to: 0, by: -1) {
            let other = next(below: index + 1)
            if other != index { elements.swapAt(index, other) }
        }
    }
}
