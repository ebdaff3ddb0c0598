import Foundation
import Testing

/// Every numeric option refuses a value outside its range before anything runs: exit code 64
/// and one line naming the option and the range, never a trap or a run without end.
struct NumericOptionsTests {
    static let refusals: [(arguments: [String], message: String)] = [
        (["garage", "--busy-timeout", "nan"], "--busy-timeout must be between 0 and 86400, got nan"),
        (["garage", "--busy-timeout", "inf"], "--busy-timeout must be between 0 and 86400, got inf"),
        (["garage", "--busy-timeout=-1"], "--busy-timeout must be between 0 and 86400, got -1"),
        (
            ["movies", "--count", "9223372036854775807"],
            "--count must be between 1 and 100000, got 9223372036854775807"
        ),
        (["movies", "--count", "0"], "--count must be between 1 and 100000, got 0"),
        (["movies", "--failure-rate", "nan"], "--failure-rate must be between 0 and 1, got nan"),
        (
            ["disk-cache-worker", "--path", "/no/such/folder/x", "--first=-3"],
            "--first must be between 0 and 1000000, got -3"
        ),
        (
            ["disk-cache-worker", "--path", "/no/such/folder/x", "--first", "9223372036854775000"],
            "--first must be between 0 and 1000000, got 9223372036854775000"
        ),
        (
            ["disk-cache-worker", "--path", "/no/such/folder/x", "--count=-1"],
            "--count must be between 0 and 10000, got -1"
        ),
        (
            ["disk-cache-worker", "--path", "/no/such/folder/x", "--instances", "0"],
            "--instances must be between 1 and 16, got 0"
        ),
        (["crash-test", "--kills", "0"], "--kills must be between 1 and 1000, got 0"),
        (["crash-test", "--child", "--round", "9223372036854775807"], "--round must be between 1 and 1000000"),
        (["fleet", "--workers", "0"], "--workers must be between 1 and 64"),
        (["machine-fleet", "--keys", "0"], "--keys must be between 1 and 1000000"),
        (["machine-fleet", "--workers", "2", "--slot", "2"], "--slot must be below --workers"),
        (["workflow-fleet", "--workflows", "0"], "--workflows must be between 1 and 1000000"),
        (["workflow-fleet", "--workers", "2", "--slot", "2"], "--slot must be below --workers"),
        (["fleet", "--worker", "--lease-ms", "1"], "--lease-ms must be between 10 and 600000"),
        (["crossing", "--script", "9223372036854775807:button"], "seconds must be between 0 and 86400"),
    ]

    @Test(arguments: refusals.indices)
    func aValueOutOfRangeExits64NamingTheOptionAndTheRange(_ index: Int) throws {
        let (arguments, message) = Self.refusals[index]
        let result = try CLIRunner.run(arguments, timeout: .seconds(30))
        #expect(!result.signaled && !result.timedOut, "\(arguments): \(result)")
        #expect(result.exitCode == 64, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    /// An integer too large for the option's type is refused by the parser itself.
    @Test(arguments: [
        ["movies", "--count", "99999999999999999999"], ["movies", "--seed=-1"],
        ["disk-cache-worker", "--path", "/no/such/folder/x", "--first", "1e3"], ["crash-test", "--seed", "nan"],
    ])
    func aNumberTheTypeCannotHoldExits64(_ arguments: [String]) throws {
        let result = try CLIRunner.run(arguments, timeout: .seconds(30))
        #expect(!result.signaled && !result.timedOut && result.exitCode == 64, "\(arguments): \(result)")
    }
}
