import ArgumentParser
import Foundation
import Scenarios

struct FleetCommand: AsyncParsableCommand {
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

    @OptionGroup var database: FleetJournalOptions

    @OptionGroup var fleet: FleetRunOptions

    @Option(help: "How many orders to enqueue.")
    var orders = 2_000

    @Option(help: "How many times to kill a worker, at least.")
    var kills = 50

    @Option(help: "The folder for the ledger and the workers' logs (and the journal, when --journal is not given).")
    var directory = FileManager.default.temporaryDirectory.appendingPathComponent("behaviorkit-fleet").path

    @OptionGroup var flowControl: FleetFlowOptions

    @Flag(help: .hidden)
    var worker = false

    @Option(help: .hidden)
    var owner = "worker"

    @Option(help: .hidden)
    var label: String?

    func validate() throws {
        try OptionRange.check("--orders", orders, in: 0...1_000_000)
        try OptionRange.check("--kills", kills, in: 0...100_000)
    }

    func run() async throws {
        let location = database.journal ?? directory + "/journal.sqlite"
        let flow = flowControl.control
        try await exitingOnError {
            if worker {
                try await Fleet.runWorker(
                    owner: owner, label: label ?? owner, journal: location, directory: directory,
                    lease: .milliseconds(fleet.leaseMs), flow: flow, driver: fleet.driverPid)
                return
            }
            FleetDriverProcess.exit(after: fleet.deadlineS, run: "fleet")
            var options = Fleet.Options(
                journal: location, processes: fleet.processes(kills: kills, directory: directory))
            options.orders = orders
            options.restartDatabase = database.restartDatabase
            options.flow = flow
            let (_, violations) = try await Fleet.run(options, console: .standardOutput)
            if !violations.isEmpty { throw ExitCode.failure }
        }
    }
}
