// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "OrderService",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "BehaviorKit", path: "../.."),
        // No traits: the example does not read its configuration through swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "OrderService",
            dependencies: [
                .product(name: "StateMachines", package: "BehaviorKit"),
                .product(name: "Commands", package: "BehaviorKit"),
                .product(name: "DurableMachines", package: "BehaviorKit"),
                .product(name: "Chains", package: "BehaviorKit"),
                .product(name: "BehaviorKitSQLite", package: "BehaviorKit"),
                .product(name: "BehaviorKitPostgres", package: "BehaviorKit"),
                .product(name: "BehaviorKitServiceLifecycle", package: "BehaviorKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The checkout workflow's tests: on the in-memory journal and store, time on a ManualClock.
        .testTarget(
            name: "OrderServiceTests",
            dependencies: [
                "OrderService",
                .product(name: "Commands", package: "BehaviorKit"),
                .product(name: "DurableMachines", package: "BehaviorKit"),
                .product(name: "BehaviorKitTesting", package: "BehaviorKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
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

    // SE-0461: nonisolated async functions run on the caller's actor.
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))

    target.swiftSettings = settings
}
