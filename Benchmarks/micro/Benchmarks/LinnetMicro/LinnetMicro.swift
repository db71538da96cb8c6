import Benchmark

/// Every suite, registered once when the runner starts.
let benchmarks: @Sendable () -> Void = {
    // Allocation and instruction counts are what these are for: they are exact on a busy machine,
    // where the wall clock is not (the black-box `make bench` quotes time against a reference).
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )
    registerQueueBenchmarks()
    registerPlayerBenchmarks()
    registerMetadataBenchmarks()
}
