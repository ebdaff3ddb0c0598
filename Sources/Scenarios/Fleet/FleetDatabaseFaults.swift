import BehaviorKitSync
import Foundation

/// The database faults of a fleet run (`fleet`, `workflow-fleet`) on PostgreSQL: the journal's backends terminated once, a
/// quarter into the kills, and the server restarted twice, at a half and three quarters. Each
/// fault is a shell command the run is given (`--restart-database`), run with `terminate` or
/// `restart` as its last argument: `Scripts/postgres-cluster.sh fault FOLDER DATABASE`, say.
struct DatabaseFaults {
    /// The command, or `nil` for a run without database faults.
    let command: String?
    /// How many faults struck so far.
    private(set) var struck = 0

    init(_ options: Fleet.Options) {
        self.init(command: options.restartDatabase)
    }

    /// The faults `command` strikes (`nil`: none).
    init(command: String?) {
        self.command = command
    }

    /// A fault that failed to strike: the command's exit status and what it printed.
    struct Failed: Error, CustomStringConvertible {
        let command: String, status: Int32
        var description: String { "the database fault '\(command)' exited with status \(status)" }
    }

    /// Strikes the faults due once `kills` of `total` kills happened.
    mutating func strike(after kills: Int, of total: Int, console: Console) async throws {
        guard let command else { return }
        let due = [(total / 4, "terminate"), (total / 2, "restart"), (total * 3 / 4, "restart")]
        while struck < due.count, kills >= due[struck].0 {
            let fault = due[struck].1
            let started = ContinuousClock.now
            try await Self.run(command + " " + fault)
            struck += 1
            console.print(
                "fleet: database \(fault) after \(kills) kills took \((ContinuousClock.now - started).shortDescription)"
            )
        }
    }

    private static func run(_ line: String) async throws {
        let child = try ChildProcess("/bin/sh", ["-c", line], log: nil)
        let status = await child.exit()
        guard status == 0 else { throw Failed(command: line, status: status) }
    }
}
