// swift-tools-version: 6.1

import PackageDescription

// Benchmarks for BehaviorKit's hot paths, on ordo-one/benchmark. Run from this folder:
//
//     swift package --allow-writing-to-package-directory benchmark
//
// Each hot path `X` is paired with `X.floor`, the same work written by hand, measured in the
// same run: the ratio X / X.floor is the figure (see README.md here).
let package = Package(
    name: "BehaviorKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "BehaviorKit", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // The durable-orders workload beside DBOS's (../../shared/peers/dbos_orders.py): an
        // executable that prints orders per second, not a benchmark of the harness.
        .executableTarget(
            name: "DurableOrders",
            dependencies: [
                .product(name: "BehaviorKitSQLite", package: "BehaviorKit"),
                .product(name: "BehaviorKitPostgres", package: "BehaviorKit"),
                .product(name: "Commands", package: "BehaviorKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Benchmarks/DurableOrders"
        ),
        .executableTarget(
            name: "DurableQueue",
            dependencies: [
                .product(name: "BehaviorKitSQLite", package: "BehaviorKit"),
                .product(name: "BehaviorKitPostgres", package: "BehaviorKit"),
                .product(name: "Commands", package: "BehaviorKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/DurableQueue"
        ),
        .executableTarget(
            name: "DurableLifecycles",
            dependencies: [
                .product(name: "BehaviorKitSQLite", package: "BehaviorKit"),
                .product(name: "BehaviorKitPostgres", package: "BehaviorKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "DurableMachines", package: "BehaviorKit"),
                .product(name: "StateMachines", package: "BehaviorKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/DurableLifecycles"
        ),
        .executableTarget(
            name: "StateMachinesBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "StateMachines", package: "BehaviorKit"),
                .product(name: "StateMachineSwitch", package: "BehaviorKit"),
            ],
            path: "Benchmarks/StateMachinesBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CommandsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Commands", package: "BehaviorKit"),
            ],
            path: "Benchmarks/CommandsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ChainsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Chains", package: "BehaviorKit"),
            ],
            path: "Benchmarks/ChainsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "JournalBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "BehaviorKitSQLite", package: "BehaviorKit"),
                .product(name: "Commands", package: "BehaviorKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/JournalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ConsoleBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "BehaviorKitConsole", package: "BehaviorKit"),
                .product(name: "BehaviorKitSQLite", package: "BehaviorKit"),
                .product(name: "Commands", package: "BehaviorKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Benchmarks/ConsoleBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PostgresBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "BehaviorKitPostgres", package: "BehaviorKit"),
                .product(name: "Commands", package: "BehaviorKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Benchmarks/PostgresBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
