import BehaviorKitSQLite
import Commands

/// The garage on a durable journal: its commands as journal kinds, the wrapper that runs a
/// command through the journal, and the run numbers that keep concurrent runs apart.
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

    /// A command that runs `command` through `invoker`'s journal under `entry`.
    struct Journaled: Command {
        let command: any Command
        let entry: CommandJournalEntry
        let invoker: JournaledInvoker

        var name: String { command.name }
        var canUndo: Bool { false }
        func execute() async throws { _ = try await invoker.run(command, as: entry) }
        func undo() async throws {}
    }

    /// Takes the next free run number: the first `run<N>` from one more than the highest in
    /// the journal that this process is first to write down (another process running at the
    /// same time takes the next), so that two runs never share keys.
    static func claimRun(_ invoker: JournaledInvoker) async throws -> Int {
        var run = try await nextRun(invoker.journal)
        while true {
            let marker = CommandJournalEntry(idempotencyKey: "run\(run)", kind: runMarkerKind)
            if case .started = try await invoker.journal.begin(marker, lease: invoker.lease) {
                try await invoker.journal.settle(marker.idempotencyKey, as: .done(output: nil), lease: invoker.lease)
                return run
            }
            run += 1
        }
    }

    /// One more than the highest `run<N>` in the journal.
    static func nextRun(_ journal: any CommandJournal) async throws -> Int {
        let runs = try await journal.allRecords().compactMap { record -> Int? in
            let key = record.entry.idempotencyKey
            guard key.hasPrefix("run") else { return nil }
            return Int(key.dropFirst(3).prefix { $0 != "/" })
        }
        return (runs.max() ?? 0) + 1
    }

    /// The first journal error among `outcomes` (a failed write, a lock held too long), looking
    /// inside transaction errors: the run cannot be trusted then, and says so.
    static func journalFailure(_ outcomes: [CommandOutcome]) -> (any Error)? {
        outcomes.lazy.compactMap { $0.error.flatMap(journalError) }.first
    }

    private static func journalError(_ error: any Error) -> (any Error)? {
        if JournalLocation.isJournalError(error) { return error }
        guard let failure = error as? TransactionError else { return nil }
        return journalError(failure.error)
            ?? failure.compensationFailures.lazy.compactMap { journalError($0.error) }.first
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
