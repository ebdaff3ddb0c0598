import BehaviorKitSQLite
import Commands

/// The garage on a durable journal: its commands as journal kinds, and the wrapper that runs a
/// command through the journal.
enum GarageJournal {
    /// The registry recovery decodes garage records with.
    static func registry(
        api: Garage.BackendAPI, database: Garage.Database, auditLog: Garage.AuditLog
    )
        -> CommandRegistry
    {
        var registry = CommandRegistry()
        registry.register("garage.addToAPI", arguments: Garage.Vehicle.self) { Garage.addToAPI($0, api) }
        registry.register("garage.saveToDB", arguments: Garage.Vehicle.self) { Garage.saveToDB($0, database) }
        registry.register("garage.log", arguments: Garage.Vehicle.self) { Garage.log($0, auditLog) }
        return registry
    }

    /// A command that runs `command` through `journal` under `entry`.
    struct Journaled: Command {
        let command: any Command
        let entry: CommandJournalEntry
        let journal: any CommandJournal

        var name: String { command.name }
        var canUndo: Bool { false }
        func execute() async throws { _ = try await journal.run(command, as: entry) }
        func undo() async throws {}
    }

    /// The next run's number: one more than the highest `run<N>/` key in the journal.
    static func nextRun(_ journal: any CommandJournal) async throws -> Int {
        let runs = try await journal.allRecords().compactMap { record -> Int? in
            let key = record.entry.idempotencyKey
            guard key.hasPrefix("run"), let slash = key.firstIndex(of: "/") else { return nil }
            return Int(key[key.index(key.startIndex, offsetBy: 3)..<slash])
        }
        return (runs.max() ?? 0) + 1
    }

    /// "9 records: 8 done, 1 failed".
    static func summary(_ records: [CommandJournalRecord]) -> String {
        let counts = CommandJournalStatus.allCases.compactMap { status -> String? in
            let count = records.count { $0.status == status }
            return count == 0 ? nil : "\(count) \(status)"
        }
        let noun = records.count == 1 ? "record" : "records"
        return "\(records.count) \(noun)" + (counts.isEmpty ? "" : ": " + counts.joined(separator: ", "))
    }
}
