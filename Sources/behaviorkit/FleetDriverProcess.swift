import ArgumentParser
import Foundation
import Scenarios

/// What the drivers of the fleet runs (`fleet`, `machine-fleet`, `workflow-fleet`, and
/// `crash-test`'s) share: a deadline, the binary their workers are started from, and the exit
/// status of a run whose checks found violations.
enum FleetDriverProcess {
    /// Exits with status 1 once `seconds` have passed, saying that the `run` did not end: the
    /// driver never hangs, and its workers, orphaned, follow it.
    static func exit(after seconds: Int, run: String) {
        Task.detached {
            try? await Task.sleep(for: .seconds(seconds))
            StandardStream.error.writeLine("error: the \(run) run did not end within its deadline of \(seconds) s")
            Foundation.exit(1)
        }
    }

    /// Exits with status 1 when the checks of a run (its report and violations, which the run
    /// printed) found any violation.
    static func failOnViolations<Report>(_ checked: (Report, [String])) throws {
        if !checked.1.isEmpty { throw ExitCode.failure }
    }

    /// This binary, to start the workers from.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
