// swift-tools-version: 6.1

// A client with a module of its own named `Commands`, beside BehaviorKit's renamed by a module
// alias, as the README says. Scripts/docs.sh builds and runs it.
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
        .executableTarget(
            name: "Client",
            dependencies: [
                "Commands",
                .product(
                    name: "Commands", package: root.lastPathComponent,
                    moduleAliases: ["Commands": "BehaviorKitCommands"]),
            ]
        ),
    ]
)
