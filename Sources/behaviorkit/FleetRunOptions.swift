import ArgumentParser

/// The options `fleet` and `workflow-fleet` share: where the journal is, how many workers, the
/// faults and their seed, the lease, and the run's deadline.
struct FleetRunOptions: ParsableArguments {
    @Option(help: "The journal: a SQLite file (created if missing) or a postgres:// URL.")
    var journal: String?

    @Option(help: "How many worker processes.")
    var workers = 4

    @Option(help: "The seed of the kill moments and victims.")
    var seed: UInt64 = 1

    @Option(help: "The workers' lease in milliseconds: how long a dead worker's claims wait.")
    var leaseMs = 1_000

    @Flag(help: "Pause workers too: SIGSTOP for one to five leases, then SIGCONT, as often as kills.")
    var pause = false

    @Option(
        help: ArgumentHelp(
            "A shell command that faults the PostgreSQL server: run with 'terminate' once and 'restart' twice.",
            valueName: "command"))
    var restartDatabase: String?

    @Option(help: "The whole run's deadline in seconds: past it the driver stops the workers and exits 1.")
    var deadlineS = 900

    @Option(help: .hidden)
    var driverPid: Int32?

    func validate() throws {
        try Self.validate(workers: workers, leaseMs: leaseMs, deadlineS: deadlineS, driverPid: driverPid)
    }

    /// Checks the options every fleet takes, `machine-fleet`'s too: the workers, the lease, the
    /// deadline and the driver's process id.
    static func validate(workers: Int, leaseMs: Int, deadlineS: Int, driverPid: Int32?) throws {
        try OptionRange.check("--workers", workers, in: 1...64)
        try OptionRange.check("--lease-ms", leaseMs, in: 10...600_000)
        try OptionRange.check("--deadline-s", deadlineS, in: 1...86_400)
        if let driverPid, driverPid <= 1 { throw ValidationError("--driver-pid must be a process id above 1") }
    }
}
