import Foundation

/// Runs the built `behaviorkit` executable and captures what it prints, as a user would see it.
enum CLIRunner {
    struct Result {
        let standardOutput: String
        let standardError: String
        let exitCode: Int32
        /// Whether the process ended by a signal (a trap, or the kill of a run past its time)
        /// rather than by exiting: `exitCode` is then the signal's number.
        var signaled = false
        /// Whether the run was killed for passing its time bound.
        var timedOut = false
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

    /// SIGPIPE ignored in the test process, once.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func run(_ arguments: [String], input: String? = nil, timeout: Duration? = nil) throws -> Result {
        try run(executable: executable.path, arguments, input: input, timeout: timeout)
    }

    /// Runs each argument list as its own process, all started together, `times` rounds in a
    /// row; returns every result.
    static func runConcurrently(_ argumentLists: [[String]], times: Int = 1) -> [Result] {
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: argumentLists.count) { index in
            for _ in 0..<times {
                do {
                    results.append(try run(argumentLists[index]))
                } catch {
                    results.append(Result(standardOutput: "", standardError: "\(error)", exitCode: -1))
                }
            }
        }
        return results.all
    }

    static func run(
        executable: String, _ arguments: [String], input: String? = nil, timeout: Duration? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        let watchdog = timeout.map { Watchdog(process, after: $0) }
        // A tool that exits before it read its input closes the pipe: the write then fails
        // (EPIPE, with SIGPIPE ignored in this process) instead of killing the test run.
        ignoreBrokenPipes
        if let input { try? inputPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        // Both pipes at once: a child that fills one while the other is read would never end.
        let errorData = LockedData()
        let errorRead = DispatchGroup()
        DispatchQueue.global().async(group: errorRead) {
            errorData.set(error.fileHandleForReading.readDataToEndOfFile())
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorRead.wait()
        process.waitUntilExit()
        watchdog?.cancel()
        return Result(
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.value, as: UTF8.self),
            exitCode: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            timedOut: watchdog?.fired ?? false)
    }
}

final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CLIRunner.Result] = []

    func append(_ result: CLIRunner.Result) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    var all: [CLIRunner.Result] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
