// swift-tools-version: 6.1

import PackageDescription

/// swift-log, swift-metrics and swift-distributed-tracing: the API packages Commands and Chains report through.
let observability: [Target.Dependency] = [
    .product(name: "Logging", package: "swift-log"),
    .product(name: "Metrics", package: "swift-metrics"),
    .product(name: "Tracing", package: "swift-distributed-tracing"),
]

/// Their test kits, for the tests that check what is reported.
let observabilityTesting: [Target.Dependency] =
    observability + [
        .product(name: "InMemoryLogging", package: "swift-log"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
    ]

let package = Package(
    name: "BehaviorKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "BehaviorKit", targets: ["BehaviorKit"]),
        .library(name: "StateMachines", targets: ["StateMachines"]),
        .library(name: "Commands", targets: ["Commands"]),
        .library(name: "Chains", targets: ["Chains"]),
        .library(name: "DurableMachines", targets: ["DurableMachines"]),
        .library(name: "BehaviorKitTesting", targets: ["BehaviorKitTesting"]),
        .library(name: "BehaviorKitSQLite", targets: ["BehaviorKitSQLite"]),
        .library(name: "BehaviorKitServiceLifecycle", targets: ["BehaviorKitServiceLifecycle"]),
        .library(name: "BehaviorKitPostgres", targets: ["BehaviorKitPostgres"]),
        .library(name: "BehaviorKitConsole", targets: ["BehaviorKitConsole"]),
        .executable(name: "behaviorkit", targets: ["behaviorkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already in postgres-nio's graph; named so that the PostgreSQL journal can read the pool's log.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The server ecosystem's API packages Commands and Chains report through (no dependencies
        // of their own): free until a backend is bootstrapped.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Tests only (NameCollisionTests): ConsoleKit declares `Command`, `CommandError` and a type
        // `Commands`, and Vapor re-exports it. A package that uses BehaviorKit does not fetch it.
        .package(url: "https://github.com/vapor/console-kit", from: "4.16.2"),
        // The web console (BehaviorKitConsole). No traits: it does not read swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Tests only (the console's browser tests talk to chromedriver): already in HummingbirdTesting's graph.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The one lock every module guards shared state with (see Lock.swift for why not `Mutex`), and the
        // few helpers they share.
        .target(name: "BehaviorKitSync"),

        // The three patterns. They never import each other. Commands and Chains log, count and trace
        // through the server ecosystem's API packages (see their Observability articles).
        .target(name: "StateMachines", dependencies: ["BehaviorKitSync"]),
        .target(name: "Commands", dependencies: ["BehaviorKitSync"] + observability),
        .target(name: "Chains", dependencies: ["BehaviorKitSync"] + observability),

        // The umbrella: `import BehaviorKit` brings all three.
        // It also reports runtimes through swift-log and swift-metrics, so that StateMachines alone
        // stays free of dependencies.
        .target(
            name: "BehaviorKit",
            dependencies: ["StateMachines", "Commands", "Chains", "BehaviorKitSync"] + observability
        ),

        // Where StateMachines and Commands meet: statecharts whose instances are durable, keyed and
        // shared by a fleet, on a store beside the journals. The two core modules still never
        // import each other.
        .target(
            name: "DurableMachines", dependencies: ["StateMachines", "Commands", "BehaviorKitSync"] + observability),

        // Manual clock and conformance kits for users' tests.
        .target(name: "BehaviorKitTesting", dependencies: ["BehaviorKitSync", "BehaviorKit", "DurableMachines"]),

        // Durable adapters on SQLite (GRDB), so that the core modules stay dependency-free.
        .target(
            name: "BehaviorKitSQLite",
            dependencies: [
                "Chains", "Commands", "DurableMachines", "BehaviorKitSync",
                .product(name: "GRDB", package: "GRDB.swift"),
            ] + observability
        ),

        // swift-service-lifecycle `Service`s for what runs in the background, apart from the core
        // modules, so that a user of StateMachines alone does not build ServiceLifecycle.
        .target(
            name: "BehaviorKitServiceLifecycle",
            dependencies: [
                "Commands", "StateMachines", "DurableMachines",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // The same journal and queue on PostgreSQL (postgres-nio), for workers on many machines.
        .target(
            name: "BehaviorKitPostgres",
            dependencies: [
                "Commands", "DurableMachines", "BehaviorKitSync",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The six scenarios of SCENARIOS.md, and the crash and fleet tests, written on the public API only.
        .target(
            name: "Scenarios",
            dependencies: [
                "BehaviorKit", "BehaviorKitTesting", "BehaviorKitSQLite", "BehaviorKitPostgres", "DurableMachines",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // A web console for durable work (journals and durable machines), mounted in a Hummingbird app.
        .target(
            name: "BehaviorKitConsole",
            dependencies: [
                "Commands", "DurableMachines", "StateMachines",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .executableTarget(
            name: "behaviorkit",
            dependencies: [
                "Scenarios", "Commands", "BehaviorKitConsole",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(
            name: "BehaviorKitTests", dependencies: ["BehaviorKit", "BehaviorKitTesting"] + observabilityTesting
        ),
        .testTarget(name: "BehaviorKitTestingTests", dependencies: ["BehaviorKit", "BehaviorKitTesting"]),
        .testTarget(
            name: "StateMachinesTests", dependencies: ["StateMachines", "BehaviorKitTesting", "BehaviorKitSync"]),
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "Commands", "BehaviorKitTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ] + observabilityTesting
        ),
        .testTarget(
            name: "DurableMachinesTests",
            dependencies: ["DurableMachines", "BehaviorKitTesting", "StateMachines"] + observabilityTesting),
        .testTarget(name: "ChainsTests", dependencies: ["Chains", "BehaviorKitTesting"] + observabilityTesting),
        .testTarget(
            name: "BehaviorKitSQLiteTests",
            dependencies: [
                "BehaviorKitSQLite", "BehaviorKitTesting", "Commands", "DurableMachines", "StateMachines",
                "BehaviorKitSync",
            ]
                + observabilityTesting
        ),
        .testTarget(
            name: "BehaviorKitPostgresTests",
            dependencies: [
                "BehaviorKitPostgres", "BehaviorKitTesting", "Commands", "DurableMachines", "StateMachines",
                "BehaviorKitSync",
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ScenariosTests", dependencies: ["Scenarios", "BehaviorKitTesting", "BehaviorKitSQLite"]),
        // The names BehaviorKit shares with other modules, spelled as its docs say, beside them.
        .target(name: "SwiftUIStandIn", path: "Tests/SwiftUIStandIn"),
        .testTarget(
            name: "NameCollisionTests",
            dependencies: [
                "BehaviorKit", "Commands", "BehaviorKitSync", "SwiftUIStandIn",
                .product(name: "ConsoleKit", package: "console-kit"),
            ]
        ),
        .testTarget(
            name: "BehaviorKitServiceLifecycleTests",
            dependencies: [
                "BehaviorKitServiceLifecycle", "BehaviorKitTesting", "BehaviorKitSQLite", "DurableMachines",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "BehaviorKitConsoleTests",
            dependencies: [
                "BehaviorKitConsole", "BehaviorKitSQLite", "BehaviorKitTesting", "Commands", "DurableMachines",
                "StateMachines",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "BehaviorKitCLITests",
            dependencies: [
                "behaviorkit", "BehaviorKitSQLite", "Commands", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []

    // SE-0335: existential types are spelled `any P`.
    settings.append(.enableUpcomingFeature("ExistentialAny"))

    // SE-0444: a member is visible only where its module is imported.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))

    // SE-0409: imports are internal unless marked `public`.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))

    // SE-0461: nonisolated async functions run on the caller's actor.
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))

    // SE-0470: conformances of isolated types are isolated too.
    settings.append(.enableUpcomingFeature("InferIsolatedConformances"))

    target.swiftSettings = settings
}
