import ArgumentParser
import Scenarios

struct WorkflowFleetCommand: AsyncParsableCommand, FleetSetupCommand {
    static let configuration = CommandConfiguration(
        commandName: "workflow-fleet",
        abstract: "Worker processes run durable workflows on one journal; kills, pauses and redeploys them, checks.",
        discussion: """
            Starts --workers worker processes on the journal (a SQLite file or a postgres:// URL) and --workflows \
            orders, each a workflow with fenced steps, a child workflow, a payment message (sent with one id by the \
            driver and by a worker, again after each restart), a durable sleep and the child's result. Kills a \
            random worker with SIGKILL (and, with --pause, pauses one past its lease) until --kills, deploys the \
            patched code once half the orders started (with --kills 4 or more; the other half starts after), faults the database with --restart-database, waits until every run finished, \
            and checks: each step's effect once per run (stale attempts refused by the ledger's fence), every \
            refused order (one in ten) rolled back with each compensation run and given its step's output, every \
            message consumed once, no sleep ended early, every child's result reached its parent once, no run \
            mixed two code paths, every workflow finished, sound files. Prints the counts; exits 1 on any violation.
            """
    )

    static let setupDefaults = FleetSetupDefaults(kills: 30, folder: "behaviorkit-workflow-fleet")

    @OptionGroup var database: FleetJournalOptions

    @OptionGroup var fleet: FleetRunOptions

    @Option(help: "How many orders (parent workflows, each with a child) to start.")
    var workflows = 1_000

    @OptionGroup var setup: FleetSetupOptions<WorkflowFleetCommand>

    @Flag(help: "Run nothing: check again what a run left in --journal and --directory, for --workflows orders.")
    var checkOnly = false

    @OptionGroup var role: FleetWorkerOptions

    @Flag(help: .hidden)
    var patched = false

    func validate() throws {
        try OptionRange.check("--workflows", workflows, in: 1...1_000_000)
        try setup.validateKills()
        try role.validate(workers: fleet.workers)
    }

    func run() async throws {
        let location = database.journal ?? setup.directory + "/journal.sqlite"
        try await exitingOnError {
            if role.worker {
                try await WorkflowFleet.runWorker(
                    slot: role.slot, workers: fleet.workers, workflows: workflows, label: role.label, journal: location,
                    directory: setup.directory, lease: .milliseconds(fleet.leaseMs), patched: patched,
                    driver: fleet.driverPid
                )
                return
            }
            if checkOnly {
                try FleetDriverProcess.failOnViolations(
                    try await WorkflowFleet.recheck(
                        journal: location, directory: setup.directory, workflows: workflows, console: .standardOutput))
                return
            }
            FleetDriverProcess.exit(after: fleet.deadlineS, run: "workflow fleet")
            if database.journal == nil {
                SQLiteFiles.remove(location)
            }
            var options = WorkflowFleet.Options(
                journal: location, processes: setup.processes(fleet))
            options.workflows = workflows
            options.restartDatabase = database.restartDatabase
            try FleetDriverProcess.failOnViolations(
                try await WorkflowFleet.run(options, console: .standardOutput))
        }
    }
}
