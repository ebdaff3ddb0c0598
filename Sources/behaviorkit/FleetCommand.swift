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
            the counts; exits 1 on any violation.
            """
    )

    @Option(help: "The journal: a SQLite file (created if missing) or a postgres:// URL.")
    var journal: String?

    @Option(help: "How many worker processes.")
    var workers = 4

    @Option(help: "How many orders to enqueue.")
    var orders = 2_000

    @Option(help: "How many times to kill a worker, at least.")
    var kills = 50

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

    @Option(help: "The folder for the ledger and the workers' logs (and the journal, when --journal is not given).")
    var directory = FileManager.default.temporaryDirectory.appendingPathComponent("behaviorkit-fleet").path

    @Flag(help: .hidden)
    var worker = false

    @Option(help: .hidden)
    var owner = "worker"

    @Option(help: .hidden)
    var label: String?

    @Option(help: .hidden)
    var driverPid: Int32?

    func validate() throws {
        guard (1...64).contains(workers) else { throw ValidationError("--workers must be between 1 and 64") }
        guard (0...1_000_000).contains(orders) else { throw ValidationError("--orders must be between 0 and 1000000") }
        guard (0...100_000).contains(kills) else { throw ValidationError("--kills must be between 0 and 100000") }
        guard (10...600_000).contains(leaseMs) else {
            throw ValidationError("--lease-ms must be between 10 and 600000")
        }
        guard (1...86_400).contains(deadlineS) else {
            throw ValidationError("--deadline-s must be between 1 and 86400")
        }
        if let driverPid, driverPid <= 1 { throw ValidationError("--driver-pid must be a process id above 1") }
    }

    func run() async throws {
        let location = journal ?? directory + "/journal.sqlite"
        do {
            if worker {
                try await Fleet.runWorker(
                    owner: owner, label: label ?? owner, journal: location, directory: directory,
                    lease: .milliseconds(leaseMs), driver: driverPid)
                return
            }
            FleetDriverProcess.exit(after: deadlineS, run: "fleet")
            var options = Fleet.Options(
                journal: location, directory: directory, executable: FleetDriverProcess.executable)
            options.workers = workers
            options.orders = orders
            options.kills = kills
            options.seed = seed
            options.lease = .milliseconds(leaseMs)
            options.pauses = pause
            options.restartDatabase = restartDatabase
            let (_, violations) = try await Fleet.run(options, console: .standardOutput)
            if !violations.isEmpty { throw ExitCode.failure }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw failure("\(error)")
        }
    }
}
