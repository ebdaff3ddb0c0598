import BehaviorKitSync
import Foundation

extension CrashTest {
    struct ChildOutput {
        var lines: [String]
        /// Why the round does not count as a kill (the child died on its own), or `nil`.
        var problem: String?
    }

    /// Runs the child, waits until it is ready, lets it work for `killAfterMilliseconds`, kills
    /// it with SIGKILL, and returns what it printed.
    static func runChild(
        _ executable: String, directory: String, round: Int, seed: UInt64, killAfterMilliseconds: Int
    ) async throws -> ChildOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "crash-test", "--child", "--directory", directory, "--round", "\(round)", "--seed", "\(seed)",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        let received = LockedValue(Data())
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.withLock { $0.append(data) }
        }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while !received.withLock({ $0.starts(with: Data("ready\n".utf8)) }) && process.isRunning
            && ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(killAfterMilliseconds))
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        let rest = pipe.fileHandleForReading.readDataToEndOfFile()
        let data = received.withLock { $0 } + rest
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let killed = wasRunning && process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return ChildOutput(
            lines: lines,
            problem: killed ? nil : "the child was not killed: it ended with status \(process.terminationStatus)")
    }
}
