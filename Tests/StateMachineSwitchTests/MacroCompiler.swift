import Foundation
import Testing

/// Type-checks a file that uses `@StateMachineSwitch` with `swiftc`, the modules this build made
/// and its macro, as a user's build does, and answers the errors it reports.
///
/// The tests meet the macro through the compiler rather than by linking its implementation: a test
/// target that depends on a macro target makes SwiftPM build the whole test product, every test
/// target and every dependency of theirs, a second time for the host (the `-tool` copies), which
/// doubled the time `swift test` took to build.
enum MacroCompiler {
    struct Result {
        /// The errors the macro reported, without the compiler's "(from macro …)" suffix.
        let macroMessages: [String]
        /// Every error the compiler reported, the macro's among them.
        let errors: [String]
    }

    /// The types the sources use: states, events and a context.
    static let prelude = """
        import StateMachineSwitch

        enum S: Hashable, Sendable {
            case s01, s02, s03, nowhere, p
            case r0, r1, r2, r3, r4, r5, r6, r7, r8, r9
            case a0, a1, a2, a3, a4, a5, a6, a7, a8, a9
            case b0, b1, b2, b3, b4, b5, b6, b7, b8, b9
        }
        enum E: Hashable, Sendable {
            case go, pay(Int)
            case e0, e1, e2, e3, e4, e5, e6, e7, e8, e9
        }
        struct C: Sendable {}

        """

    static func typecheck(_ source: String) throws -> Result {
        let products = try productsDirectory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("macro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Diagnosed.swift")
        try (prelude + source).write(to: file, atomically: true, encoding: .utf8)

        let modules = products.appendingPathComponent("Modules")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-diagnostic-style=llvm", "-module-name", "Diagnosed",
            "-I", FileManager.default.fileExists(atPath: modules.path) ? modules.path : products.path,
            "-Xfrontend", "-load-plugin-executable",
            "-Xfrontend", try macroExecutable(in: products).path + "#StateMachineSwitchMacros",
            file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        let suffix = " (from macro 'StateMachineSwitch')"
        let errors = text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: ": error: ") else { return nil }
            return String(line[range.upperBound...])
        }
        let macroMessages = errors.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
        // A compiler that did not run, or failed without an error, is not a clean build.
        if errors.isEmpty && process.terminationStatus != 0 {
            Issue.record("swiftc exited with \(process.terminationStatus) and no error:\n\(text)")
        }
        return Result(macroMessages: macroMessages, errors: errors)
    }

    /// The folder SwiftPM builds the test bundle, the modules and the macro into.
    private static func productsDirectory() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for directory in candidates where (try? macroExecutable(in: directory)) != nil {
            return directory
        }
        throw CocoaError(
            .fileNoSuchFile,
            userInfo: [NSFilePathErrorKey: "StateMachineSwitchMacros beside the test bundle, in \(candidates)"])
    }

    private static func macroExecutable(in directory: URL) throws -> URL {
        for name in ["StateMachineSwitchMacros-tool", "StateMachineSwitchMacros"] {
            let url = directory.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: url.path)
            {
                return url
            }
        }
        throw CocoaError(
            .fileNoSuchFile, userInfo: [NSFilePathErrorKey: "StateMachineSwitchMacros in \(directory.path)"])
    }
}
