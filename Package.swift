// swift-tools-version: 6.1

import CompilerPluginSupport
import PackageDescription

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Each target declares exactly the modules it imports (Scripts/imports.sh checks it in CI).
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
let tracing = Target.Dependency.product(name: "Tracing", package: "swift-distributed-tracing")
let inMemoryLogging = Target.Dependency.product(name: "InMemoryLogging", package: "swift-log")
let metricsTestKit = Target.Dependency.product(name: "MetricsTestKit", package: "swift-metrics")
let inMemoryTracing = Target.Dependency.product(name: "InMemoryTracing", package: "swift-distributed-tracing")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let propertyBased = Target.Dependency.product(name: "PropertyBased", package: "swift-property-based")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let postgresNIO = Target.Dependency.product(name: "PostgresNIO", package: "postgres-nio")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let swiftSyntax = Target.Dependency.product(name: "SwiftSyntax", package: "swift-syntax")
let swiftSyntaxBuilder = Target.Dependency.product(name: "SwiftSyntaxBuilder", package: "swift-syntax")
let swiftSyntaxMacros = Target.Dependency.product(name: "SwiftSyntaxMacros", package: "swift-syntax")
let swiftDiagnostics = Target.Dependency.product(name: "SwiftDiagnostics", package: "swift-syntax")
let swiftCompilerPlugin = Target.Dependency.product(name: "SwiftCompilerPlugin", package: "swift-syntax")

let package = Package(
    name: "BehaviorKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "BehaviorKit", targets: ["BehaviorKit"]),
        .library(name: "StateMachines", targets: ["StateMachines"]),
        .library(name: "StateMachineSwitch", targets: ["StateMachineSwitch"]),
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
    // What only some commands of the `behaviorkit` tool need stays out of its default build, so that a
    // fresh clone's `swift run behaviorkit tour` compiles neither SwiftNIO nor BoringSSL. The
    // libraries (BehaviorKitPostgres, …) are products of their own either way: an app that depends on
    // them builds them, whatever the traits.
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "The command-line tool opens journals and machine stores at postgres:// URLs (postgres-nio)."
        ),
        .trait(
            name: "Console",
            description: "The command-line tool serves the web console (BehaviorKitConsole, on Hummingbird)."
        ),
        .default(enabledTraits: []),
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
        // Already in Hummingbird's graph; named because the console's code imports them.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The opt-in `@StateMachineSwitch` macro (StateMachineSwitch): only a package that uses it builds it.
        .package(url: "https://github.com/swiftlang/swift-syntax", "603.0.1"..<"604.0.0"),
        // Tests only (the console's browser tests talk to chromedriver): already in HummingbirdTesting's graph.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The one lock every module guards shared state with (see Lock.swift for why not `Mutex`), and the
        // few helpers they share.
        .target(name: "BehaviorKitSync"),

        // The three patterns. They never import each other. Commands and Chains log, count and trace
        // through the server ecosystem's API packages (see their Observability articles).
        .target(name: "StateMachines", dependencies: ["BehaviorKitSync", "StatechartSemantics"]),

        // SCXML's algorithm over integer tables (domains, exit and entry sets, history, selection,
        // conflicts), written once for the interpreter, its plans and `@StateMachineSwitch`. No
        // dependencies, so that the macro can build it too without StateMachines.
        .target(name: "StatechartSemantics"),

        // Opt-in: `@StateMachineSwitch` compiles a definition into a `switch` at build time (swift-syntax).
        .macro(
            name: "StateMachineSwitchMacros",
            dependencies: [
                "StatechartSemantics", swiftSyntax, swiftSyntaxBuilder, swiftSyntaxMacros, swiftDiagnostics,
                swiftCompilerPlugin,
            ]
        ),
        .target(name: "StateMachineSwitch", dependencies: ["StateMachines", "StateMachineSwitchMacros"]),
        .target(name: "Commands", dependencies: ["BehaviorKitSync", logging, metrics, tracing]),
        .target(name: "Chains", dependencies: ["BehaviorKitSync", logging, metrics, tracing]),

        // The umbrella: `import BehaviorKit` brings all three.
        // It also reports runtimes through swift-log and swift-metrics, so that StateMachines alone
        // stays free of dependencies.
        .target(
            name: "BehaviorKit",
            dependencies: ["StateMachines", "Commands", "Chains", logging, metrics]
        ),

        // Where StateMachines and Commands meet: statecharts whose instances are durable, keyed and
        // shared by a fleet, on a store beside the journals. The two core modules still never
        // import each other.
        .target(
            name: "DurableMachines",
            dependencies: ["StateMachines", "Commands", "BehaviorKitSync", logging, metrics, tracing]
        ),

        // Manual clock and conformance kits for users' tests.
        .target(
            name: "BehaviorKitTesting",
            dependencies: ["BehaviorKitSync", "StateMachines", "Commands", "Chains", "DurableMachines"]
        ),

        // Durable adapters on SQLite (GRDB), so that the core modules stay dependency-free.
        .target(
            name: "BehaviorKitSQLite",
            dependencies: ["Chains", "Commands", "DurableMachines", "BehaviorKitSync", grdb, logging]
        ),

        // swift-service-lifecycle `Service`s for what runs in the background, apart from the core
        // modules, so that a user of StateMachines alone does not build ServiceLifecycle.
        .target(
            name: "BehaviorKitServiceLifecycle",
            dependencies: ["Commands", "StateMachines", "DurableMachines", serviceLifecycle]
        ),

        // The same journal and queue on PostgreSQL (postgres-nio), for workers on many machines.
        .target(
            name: "BehaviorKitPostgres",
            dependencies: ["Commands", "DurableMachines", "BehaviorKitSync", postgresNIO, logging]
        ),

        // The six scenarios of SCENARIOS.md, and the crash and fleet tests, written on the public API only.
        .target(
            name: "Scenarios",
            dependencies: [
                "StateMachines", "Commands", "Chains", "DurableMachines", "BehaviorKitSync", "BehaviorKitTesting",
                "BehaviorKitSQLite", grdb,
                .target(name: "BehaviorKitPostgres", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),

        // A web console for durable work (journals and durable machines), mounted in a Hummingbird app.
        .target(
            name: "BehaviorKitConsole",
            dependencies: ["Commands", "DurableMachines", "StateMachines", hummingbird, httpTypes, nioCore, logging]
        ),

        .executableTarget(
            name: "behaviorkit",
            dependencies: [
                "Scenarios", "StateMachines", "Commands", "DurableMachines", "BehaviorKitTesting", "BehaviorKitSQLite",
                argumentParser,
                .target(name: "BehaviorKitConsole", condition: .when(traits: ["Console"])),
            ]
        ),

        .testTarget(
            name: "BehaviorKitTests",
            dependencies: ["BehaviorKit", "BehaviorKitTesting", logging, metrics, inMemoryLogging, metricsTestKit]
        ),
        .testTarget(name: "BehaviorKitTestingTests", dependencies: ["BehaviorKit", "BehaviorKitTesting"]),
        .testTarget(
            name: "StateMachinesTests", dependencies: ["StateMachines", "BehaviorKitTesting", "BehaviorKitSync"]),
        .testTarget(
            name: "StateMachineSwitchTests",
            // Not the macro's implementation: a test target that depends on a macro target makes
            // SwiftPM build the whole test product and its dependencies a second time, for the host.
            // The diagnostics tests run the macro through `swiftc` instead (MacroCompiler.swift).
            dependencies: ["StateMachineSwitch", "BehaviorKitSync"]
        ),
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "Commands", "BehaviorKitTesting", "BehaviorKitSync", propertyBased, logging, metrics, tracing,
                inMemoryLogging, metricsTestKit, inMemoryTracing,
            ]
        ),
        .testTarget(
            name: "DurableMachinesTests",
            dependencies: [
                "DurableMachines", "BehaviorKitTesting", "StateMachines", "Commands", "BehaviorKitSync", metrics,
                tracing,
                metricsTestKit, inMemoryTracing,
            ]
        ),
        .testTarget(
            name: "ChainsTests",
            dependencies: [
                "Chains", "BehaviorKitTesting", "BehaviorKitSync", logging, metrics, tracing, inMemoryLogging,
                metricsTestKit, inMemoryTracing,
            ]
        ),
        .testTarget(
            name: "BehaviorKitSQLiteTests",
            dependencies: [
                "BehaviorKitSQLite", "BehaviorKitTesting", "Chains", "Commands", "DurableMachines", "StateMachines",
                "BehaviorKitSync", grdb, logging, metrics, inMemoryLogging, metricsTestKit,
            ]
        ),
        .testTarget(
            name: "BehaviorKitPostgresTests",
            dependencies: [
                "BehaviorKitPostgres", "BehaviorKitTesting", "Commands", "DurableMachines", "StateMachines",
                "BehaviorKitSync", postgresNIO, logging, inMemoryLogging,
            ]
        ),
        .testTarget(
            name: "ScenariosTests",
            dependencies: [
                "Scenarios", "BehaviorKitTesting", "BehaviorKitSQLite", "StateMachines", "Commands", "Chains", grdb,
            ]
        ),
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
                "Commands", "StateMachines", "BehaviorKitSync", serviceLifecycle,
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "BehaviorKitConsoleTests",
            dependencies: [
                "BehaviorKitConsole", "BehaviorKitSQLite", "BehaviorKitTesting", "Commands", "DurableMachines",
                "StateMachines", hummingbird, httpTypes, nioCore, logging, inMemoryLogging,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "BehaviorKitCLITests",
            dependencies: ["behaviorkit", "BehaviorKitSQLite", "Commands", grdb, argumentParser, propertyBased]
        ),
    ]
)

// CI's ThreadSanitizer step runs only the stress tests; with BEHAVIORKIT_STRESS_TESTS_ONLY set, the
// manifest keeps only the test targets that hold them and the targets they depend on (and the
// products made of those), so that this build under the sanitizer does not compile swift-syntax,
// Hummingbird or the command-line tool, which no stress test reaches.
let stressTestTargets: Set = [
    "StateMachinesTests", "CommandsTests", "ChainsTests", "BehaviorKitSQLiteTests",
]
if ProcessInfo.processInfo.environment["BEHAVIORKIT_STRESS_TESTS_ONLY"] != nil {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var kept: Set<String> = []
    var next = Array(stressTestTargets)
    while let name = next.popLast() {
        guard kept.insert(name).inserted, let target = byName[name] else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): next.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return !targets.allSatisfy(kept.contains)
    }
}

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
