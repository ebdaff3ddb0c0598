import ArgumentParser
import Scenarios

struct MachineFleetCommand: AsyncParsableCommand, FleetSetupCommand {
    static let configuration = CommandConfiguration(
        commandName: "machine-fleet",
        abstract: "Worker processes share durable state machines; kills and pauses them, replays every history.",
        discussion: """
            Starts --workers worker processes on one machine store and journal (a SQLite file, opened as one store, \
            or a postgres:// URL). Each starts its share of --keys parcels and sends their events with ids (again \
            after a restart), and all fire timers, run effects and work the queue of the commands deliveries emit; \
            the driver sends a tenth of the events again, kills a random worker with SIGKILL (and, \
            with --pause, pauses one past its lease) until --kills, waits until every lifecycle ended, and replays \
            each history against the definition: every acknowledged event applied once, every step a transition \
            of the definition, every timer fired at most once and only into its own visit, every effect event \
            delivered to its own visit only, no version gap, each delivery's command in the journal once and run, \
            a sound file. Exits 1 on any violation.
            """
    )

    static let setupDefaults = FleetSetupDefaults(
        kills: 30, folder: "behaviorkit-machine-fleet",
        directoryHelp: "The folder for the logs (and the store, when --store is not given).")

    @Option(help: "The store and journal: a SQLite file (created if missing) or a postgres:// URL.")
    var store: String?

    @OptionGroup var fleet: FleetRunOptions

    @Option(help: "How many parcels (keys).")
    var keys = 1_000

    @OptionGroup var setup: FleetSetupOptions<MachineFleetCommand>

    @OptionGroup var role: FleetWorkerOptions

    func validate() throws {
        try OptionRange.check("--keys", keys, in: 1...1_000_000)
        try setup.validateKills()
        try role.validate(workers: fleet.workers)
    }

    func run() async throws {
        let location = store ?? setup.directory + "/machines.sqlite"
        try await exitingOnError {
            if role.worker {
                try await MachineFleet.runWorker(
                    slot: role.slot, workers: fleet.workers, label: role.label, store: location,
                    directory: setup.directory,
                    keys: keys, seed: fleet.seed, lease: .milliseconds(fleet.leaseMs), driver: fleet.driverPid)
                return
            }
            FleetDriverProcess.exit(after: fleet.deadlineS, run: "machine fleet")
            if store == nil {
                SQLiteFiles.remove(location)
            }
            var options = MachineFleet.Options(
                store: location, processes: setup.processes(fleet))
            options.keys = keys
            try FleetDriverProcess.failOnViolations(
                try await MachineFleet.run(options, console: .standardOutput))
        }
    }
}
