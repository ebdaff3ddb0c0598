import ArgumentParser
import Foundation
import PropertyBased
import Testing

@testable import behaviorkit

/// Random and adversarial command lines and standard input, seeded: every subcommand, hidden
/// ones included, parses to a command or a refusal with exit code 0 or 64, and as a real
/// process ends with 0, 1 or 64, never by a signal, within a time bound.
struct CLIFuzzTests {
    let folder: String
    let arguments: FuzzedArguments

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("CLIFuzzTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("some text, not a database".utf8).write(to: URL(fileURLWithPath: folder + "/text.txt"))
        arguments = FuzzedArguments(folder: folder)
    }

    /// Parsing (ArgumentParser's, then each command's `validate()`), in this process: 3,000
    /// command lines.
    @Test func everyCommandLineParsesOrIsRefusedWithExitCode0Or64() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var random = Xoshiro(seed: (15, 5, 6, 2026))
        for _ in 0..<3_000 {
            let line = arguments.generator.run(using: &random)
            do {
                _ = try BehaviorKitCommand.parseAsRoot(line)
            } catch {
                let code = BehaviorKitCommand.exitCode(for: error).rawValue
                #expect([0, 64].contains(code), "\(line): exit code \(code): \(error)")
            }
        }
    }

    /// 150 command lines with random standard input, as real processes: each ends with 0, 1 or
    /// 64 within 30 s. Command lines that parse to a run that is long by design (the crash and
    /// fleet tests, the tour, real-time waits, large counts) and those naming a server are only
    /// parsed.
    @Test func everyProcessExitsWith0Or1Or64WithinItsBound() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var random = Xoshiro(seed: (5, 15, 2026, 6))
        var runs = 0
        while runs < 150 {
            let line = arguments.generator.run(using: &random)
            let input = arguments.input.run(using: &random)
            if let command = try? BehaviorKitCommand.parseAsRoot(line), Self.isLong(command) { continue }
            // A server that is not there may be retried for a while: parsed above, not run.
            if line.contains(where: { $0.hasPrefix("postgres") || $0.contains("=postgres") }) { continue }
            runs += 1
            let result = try CLIRunner.run(line, input: input, timeout: .seconds(30))
            #expect(!result.timedOut, "\(line) ran past its bound")
            #expect(!result.signaled, "\(line): signal \(result.exitCode)\n\(result.standardError)")
            #expect([0, 1, 64].contains(result.exitCode), "\(line): exit code \(result.exitCode)")
        }
    }

    /// Whether `command` is a valid run that takes long by design.
    static func isLong(_ command: any ParsableCommand) -> Bool {
        switch command {
        case is CrashTestCommand, is FleetCommand, is MachineFleetCommand, is TourCommand: true
        case let vehicle as VehicleCommand: !vehicle.instant
        case let movies as MoviesCommand: movies.realTime || movies.count > 2_000
        case let worker as DiskCacheWorkerCommand: worker.count > 500
        default: false
        }
    }
}
