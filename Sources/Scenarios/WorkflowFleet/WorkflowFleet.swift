import BehaviorKitSync
import Commands
import Foundation

/// The workflow fleet test: worker processes run durable workflows on one journal; the driver
/// starts the orders (each with a child, a payment message, a durable sleep and fenced
/// effects), sends every payment message while the workers send theirs too (the same ids),
/// kills workers with SIGKILL, pauses them past their leases, deploys the patched code once half
/// the orders started (every worker replaced; the other half starts after), and on PostgreSQL
/// restarts the server; then it waits until every run finished and checks every promise.
public enum WorkflowFleet {
    /// What to run.
    public struct Options: Sendable {
        /// The worker processes that run the workflows, and their kills (the deploy's count)
        /// and pauses.
        public var processes: FleetProcesses
        /// How many orders (parent workflows) the driver starts.
        public var workflows = 1_000
        /// The journal: a SQLite path, or a `postgres://` URL.
        public var journal: String
        /// A shell command that faults the PostgreSQL server (``Fleet/Options/restartDatabase``).
        public var restartDatabase: String?

        /// Options for a run on `journal` by `processes` (the ledger in their folder).
        public init(journal: String, processes: FleetProcesses) {
            self.journal = journal
            self.processes = processes
        }
    }

    /// Runs the fleet; prints the counts and every violation; returns them.
    public static func run(
        _ options: Options, console: Console
    ) async throws -> (WorkflowFleetReport, violations: [String]) {
        let processes = options.processes
        try FileManager.default.createDirectory(atPath: processes.directory, withIntermediateDirectories: true)
        SQLiteFiles.remove(Fleet.ledgerPath(processes.directory))
        let journal = try await JournalLocation.open(options.journal)
        let ledger = try FleetLedger(path: Fleet.ledgerPath(processes.directory))
        let driver = engine(journal, ledger, owner: "driver", label: "driver", lease: processes.lease, patched: false)
        let patched = LockedValue(false)
        let pool = WorkerPool(executable: processes.executable, directory: processes.directory) { slot, label in
            [
                "workflow-fleet", "--worker", "--slot", "\(slot)", "--workers", "\(processes.workers)",
                "--workflows", "\(options.workflows)", "--label", label, "--journal", options.journal,
                "--directory", processes.directory, "--lease-ms", "\(processes.lease.journalMilliseconds)",
                "--driver-pid", "\(getpid())",
            ] + (patched.withLock { $0 } ? ["--patched"] : [])
        }
        for slot in 0..<processes.workers { try pool.start(slot) }
        let started = ContinuousClock.now
        let order = FleetWorkflows.order(ledger, worker: "driver", patched: false)
        let acknowledged = LockedValue<[Int]>([])
        // Half the orders start before the deploy of the patched code, half after: the runs of
        // the first half that are past the patch keep the first path, under the new code.
        let deploys = processes.kills >= 4
        let starting = Fleet.inLanes(options.workflows) { number in
            while deploys && number >= options.workflows / 2 && !patched.withLock({ $0 }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            try await driver.start(order, key: FleetWorkflows.key(number), input: number)
            acknowledged.withLock { $0.append(number) }
            // The driver's send of the payment (the workers send it too).
            try await FleetWorkflows.sendPayment(number, driver)
        }
        var random = SplitMix64(seed: processes.seed)
        var faults = DatabaseFaults(command: options.restartDatabase)
        var deployed = false
        while pool.kills < processes.kills || (deploys && !deployed) {
            try await Task.sleep(for: .milliseconds(50 + Int(random.next() % 250)))
            if deploys && !deployed && pool.kills >= processes.kills / 4
                && acknowledged.withLock({ $0.count }) >= options.workflows / 2
            {
                // The patched code's deploy: no worker of the first version is left.
                patched.withLock { $0 = true }
                try await pool.redeploy()
                deployed = true
                console.print("workflow fleet: deployed the patched code after \(pool.kills) kills")
                continue
            }
            try await pool.strike(&random, by: processes)
            try await faults.strike(after: pool.kills, of: processes.kills, console: console)
        }
        try await starting.value
        let settled = try await Fleet.waitUntilSettled(
            journal, queue: FleetWorkflows.queue, timeout: .seconds(300), console: console
        ) {
            try pool.reviveExited()
        }
        await pool.stopAll()
        let elapsed = ContinuousClock.now - started
        var (report, violations) = try await check(
            journal, ledger, acknowledged: acknowledged.withLock { $0 }, settled: settled)
        report.databaseFaults = faults.struck
        try await pool.end(
            "workflow fleet", &report, violations: violations, workers: processes.workers, elapsed: elapsed,
            console: console
        ) { try await journal.close() }
        return (report, violations)
    }

    /// The workflows of a process on `journal`: the orders' queue, a worker identity `owner`
    /// (stable across a worker's restarts) and the code version `patched`.
    static func engine(
        _ journal: any CommandJournal, _ ledger: FleetLedger, owner: String, label: String, lease: Duration,
        patched: Bool
    ) -> Workflows {
        Workflows(
            FleetWorkflows.registry(ledger, worker: label, patched: patched),
            queue: CommandQueue(FleetWorkflows.queue, journal: journal),
            invoker: JournaledInvoker(journal: journal, owner: owner, leaseDuration: lease),
            pollInterval: .milliseconds(500))
    }
}
