/// How a fleet run (`fleet`, `workflow-fleet`, `machine-fleet`) drives its worker processes:
/// how many run at once, how often they are killed and paused and with what seed, their lease,
/// the binary they run and the folder their files go to.
public struct FleetProcesses: Sendable {
    /// How many worker processes run at once.
    public var workers = 4
    /// How many workers to kill, at least.
    public var kills = 30
    /// The seed of the kill moments and victims (and of a machine fleet's plans).
    public var seed: UInt64 = 1
    /// Where the run's files (its ledger or acknowledgement logs) and the workers' logs go.
    public var directory: String
    /// The workers' lease: how long a dead worker's claims, runs or effects wait before another
    /// takes them.
    public var lease: Duration = .seconds(1)
    /// The `behaviorkit` binary, run as the fleet's subcommand with `--worker`.
    public var executable: String
    /// Whether to pause workers too: SIGSTOP for one to five leases, then SIGCONT.
    public var pauses = false

    /// Worker processes of `executable` with their files in `directory`.
    public init(directory: String, executable: String) {
        self.directory = directory
        self.executable = executable
    }
}
