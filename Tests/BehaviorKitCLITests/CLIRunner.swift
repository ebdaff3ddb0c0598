import Foundation

/// Runs the built `behaviorkit` executable and captures what it prints, as a user would see it.
enum CLIRunner {
    struct Result {
        let standardOutput: String
        let standardError: String
        let exitCode: Int32
    }

    static var executable: URL {
        get throws {
            // Test bundles and executables are built into the same products directory.
            let candidates = [
                Bundle.main.bundleURL,
                Bundle.main.bundleURL.deletingLastPathComponent(),
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            ]
            for directory in candidates {
                let url = directory.appendingPathComponent("behaviorkit")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "behaviorkit executable"])
        }
    }

    static func run(_ arguments: [String], input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = try executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            exitCode: process.terminationStatus)
    }
}
