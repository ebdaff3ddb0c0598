import ArgumentParser
import Scenarios

struct FleetCommand: AsyncParsableCommand, FleetSetupCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Worker processes share one durable journal and queue; kills them at random, restarts them, checks.",
        discussion: """
            Starts --workers worker processes on the journal (a SQLite file or a postgres:// URL), enqueues --orders \
            orders (a three-step durable transaction each), kills a random worker with SIGKILL and starts it again \
            until --kills kills, waits until every order settled, and checks every promise: each acknowledged order \
            ran, each effect once, no transaction half-done, no step run by two workers at once, sound files. Prints \
            the counts; exits 1 on any violation. With --partitions, --pause-queue and --schedules, also that no \
            customer ran more orders at once than its limit, that nothing began while the queue was paused, and that \
            every minute's tick of every schedule ran.
            """
    )

    static let setupDefaults = FleetSetupDefaults(kills: 50, folder: "behaviorkit-fleet")

    @OptionGroup var database: FleetJournalOptions

    @OptionGroup var fleet: FleetRunOptions

    @Option(help: "How many orders to enqueue.")
    var orders = 2_000

    @OptionGroup var setup: FleetSetupOptions<FleetCommand>

    @OptionGroup var flowControl: FleetFlowOptions

    @Flag(help: .hidden)
    var worker = false

    @Option(help: .hidden)
    var owner = "worker"

    @Option(help: .hidden)
    var label: String?

    func validate() throws {
        try OptionRange.check("--orders", orders, in: 0...1_000_000)
        try setup.validateKills()
    }

    func run() async throws {
        let location = database.journal ?? setup.directory + "/journal.sqlite"
        let flow = flowControl.control
        try await exitingOnError {
            if worker {
                try await Fleet.runWorker(
                    owner: owner, label: label ?? owner, journal: location, directory: setup.directory,
                    lease: .milliseconds(fleet.leaseMs), flow: flow, driver: fleet.driverPid)
                return
            }
            FleetDriverProcess.exit(after: fleet.deadlineS, run: "fleet")
            var options = Fleet.Options(
                journal: location, processes: setup.processes(fleet))
            options.orders = orders
            options.restartDatabase = database.restartDatabase
            options.flow = flow
            try FleetDriverProcess.failOnViolations(
                try await Fleet.run(options, console: .standardOutput))
        }
    }
}
