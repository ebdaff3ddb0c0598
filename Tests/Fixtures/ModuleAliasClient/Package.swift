// swift-tools-version: 6.1

// A client with modules of its own named `Commands` and `Chains`, beside BehaviorKit's renamed by
// module aliases, as the README and the catalogs say. Scripts/docs.sh builds and runs it.
import Foundation
import PackageDescription

// A path dependency is named after its folder, whatever the clone is called.
let root = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardized

let package = Package(
    name: "ModuleAliasClient",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: root.path)],
    targets: [
        .target(name: "Commands"),
        .target(name: "Chains"),
        .executableTarget(
            name: "Client",
            dependencies: [
                "Commands", "Chains",
                .product(
                    name: "Commands", package: root.lastPathComponent,
                    moduleAliases: ["Commands": "BehaviorKitCommands"]),
                .product(
                    name: "Chains", package: root.lastPathComponent, moduleAliases: ["Chains": "BehaviorKitChains"]),
            ]
        ),
    ]
)
