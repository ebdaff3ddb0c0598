import ArgumentParser
import Scenarios

/// The options every fleet (`fleet`, `workflow-fleet`, `machine-fleet`) shares: how many
/// workers, the faults' seed, the lease, pauses, the run's deadline, and the driver's process
/// id its workers watch.
struct FleetRunOptions: ParsableArguments {
    @Option(help: "How many worker processes.")
    var workers = 4

    @Option(help: "The seed of the kill moments and victims (and of machine-fleet's plans).")
    var seed: UInt64 = 1

    @Option(help: "The workers' lease in milliseconds: how long a dead worker's claims (records, runs, effects) wait.")
    var leaseMs = 1_000

    @Flag(help: "Pause workers too: SIGSTOP for one to five leases, then SIGCONT, as often as kills.")
    var pause = false

    @Option(help: "The whole run's deadline in seconds: past it the driver stops the workers and exits 1.")
    var deadlineS = 900

    @Option(help: .hidden)
    var driverPid: Int32?

    func validate() throws {
        try OptionRange.check("--workers", workers, in: 1...64)
        try OptionRange.check("--lease-ms", leaseMs, in: 10...600_000)
        try OptionRange.check("--deadline-s", deadlineS, in: 1...86_400)
        if let driverPid, driverPid <= 1 { throw ValidationError("--driver-pid must be a process id above 1") }
    }

    /// The worker processes these options ask for, of this binary, killed at least `kills` times,
    /// their files in `directory`.
    func processes(kills: Int, directory: String) -> FleetProcesses {
        var processes = FleetProcesses(directory: directory, executable: FleetDriverProcess.executable)
        processes.workers = workers
        processes.kills = kills
        processes.seed = seed
        processes.lease = .milliseconds(leaseMs)
        processes.pauses = pause
        return processes
    }
}
