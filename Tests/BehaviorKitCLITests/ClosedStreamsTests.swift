import Foundation
import Testing

/// A full disk or a closed pipe on standard output or standard error loses what the tool
/// writes there, and never kills it: the exit status is still 0, 1 or 64.
struct ClosedStreamsTests {
    enum Stream: String, CaseIterable, Sendable {
        case output, error
    }

    enum Sink: String, CaseIterable, Sendable {
        case full = "/dev/full"
        case closedPipe = "a closed pipe"
    }

    /// Each writes to standard output or standard error, or both: a trace, an `error:` line,
    /// ArgumentParser's own refusal and help.
    static let runs: [[String]] = [
        ["garage"], ["diagram", "crossing"], ["phone", "123"], ["journal", "/no/such/journal"],
        ["movies", "--count", "0"], ["disk-cache-worker", "--path", "/no/such/folder/cache.sqlite"], ["--help"],
        ["cart"],
    ]

    @Test(arguments: runs, Stream.allCases)
    func aWriteToAFullOrClosedStreamNeverKillsTheTool(_ arguments: [String], _ stream: Stream) throws {
        for sink in Sink.allCases {
            let status = try Self.run(arguments, with: stream, on: sink)
            #expect(status.reason == .exit, "\(arguments), \(stream) on \(sink.rawValue): signal \(status.code)")
            #expect([0, 1, 64].contains(status.code), "\(arguments), \(stream) on \(sink.rawValue): \(status.code)")
        }
    }

    static func run(
        _ arguments: [String], with stream: Stream, on sink: Sink
    ) throws -> (reason: Process.TerminationReason, code: Int32) {
        let process = Process()
        process.executableURL = try CLIRunner.executable
        process.arguments = arguments
        let target: Any
        switch sink {
        case .full:
            target = try #require(FileHandle(forWritingAtPath: sink.rawValue))
        case .closedPipe:
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            target = pipe
        }
        let other = Pipe()
        if stream == .output {
            process.standardOutput = target
            process.standardError = other
        } else {
            process.standardOutput = other
            process.standardError = target
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = Watchdog(process, after: .seconds(60))
        _ = other.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationReason, process.terminationStatus)
    }
}
