import ArgumentParser
import Foundation
import Scenarios

/// What a fleet command's ``FleetSetupOptions`` default to.
struct FleetSetupDefaults {
    /// How many kills when `--kills` is not given.
    var kills: Int
    /// The folder under the temporary directory when `--directory` is not given.
    var folder: String
    /// What `--directory` holds, as its help says.
    var directoryHelp =
        "The folder for the ledger and the workers' logs (and the journal, when --journal is not given)."
}

/// A fleet command (`fleet`, `workflow-fleet`, `machine-fleet`): it names the defaults of its
/// ``FleetSetupOptions``.
protocol FleetSetupCommand {
    /// Its defaults.
    static var setupDefaults: FleetSetupDefaults { get }
}

/// The options every fleet command takes with defaults of its own (`Command`'s): how many
/// kills, and the folder of its files.
struct FleetSetupOptions<Command: FleetSetupCommand>: ParsableArguments {
    @Option(help: "How many times to kill a worker, at least.")
    var kills = Command.setupDefaults.kills

    @Option(help: ArgumentHelp(Command.setupDefaults.directoryHelp))
    var directory = FileManager.default.temporaryDirectory.appendingPathComponent(Command.setupDefaults.folder).path

    /// Refuses a `--kills` out of range. Each command calls it from its `validate()` after
    /// checking its own count, which an error names first.
    func validateKills() throws {
        try OptionRange.check("--kills", kills, in: 0...100_000)
    }

    /// The worker processes `fleet` asks for, killed at least ``kills`` times, their files in
    /// ``directory``.
    func processes(_ fleet: FleetRunOptions) -> FleetProcesses {
        fleet.processes(kills: kills, directory: directory)
    }
}
