// swift-tools-version: 6.1
import PackageDescription

/// In-process micro benchmarks of linnet's hot paths, with allocation counts (package-benchmark).
///
/// A package of its own, beside the black-box `make bench`: the product, its tests and CI never
/// resolve or build the benchmark framework. Run with `make bench-micro` from the repository.
let package = Package(
    name: "LinnetMicroBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Linnet", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "LinnetMicro",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DBus", package: "Linnet"),
                .product(name: "MPRIS", package: "Linnet"),
                .product(name: "PlayerCore", package: "Linnet"),
            ],
            path: "Benchmarks/LinnetMicro",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
