import Foundation
import Scenarios

/// What the drivers of the fleet runs (`fleet`, `machine-fleet`, `workflow-fleet`) share: a
/// deadline, and the binary their workers are started from.
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

    /// This binary, to start the workers from.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
