public import Commands
public import DurableMachines
import StateMachines

extension MachineStoreConformance {
    /// The checks of a machine store that shares its journal's database (`SQLiteStore`'s and
    /// `PostgresStore`'s views: `MachineStore.enqueuesCommands(on:)`): a step and the commands
    /// it emits commit together — no outbox record, no relay, a replay enqueues nothing again —
    /// and a command the journal refuses (its key held by another command) leaves that step
    /// unwritten, and only that one among steps of many keys sent at once. Each check runs on a
    /// new, empty store from `makeStore`, which `close` closes.
    ///
    /// ```swift
    /// @Test func aStepAndItsCommandsCommitTogether() async throws {
    ///     try await MachineStoreConformance.checkCommandsInTheStepsCommit {
    ///         let store = try SQLiteStore(path: temporaryFile())
    ///         return (store.machines, store.journal, { try await store.close() })
    ///     }
    /// }
    /// ```
    public static func checkCommandsInTheStepsCommit(
        _ makeStore: () async throws -> (
            machines: any MachineStore, journal: any CommandJournalManagement, close: @Sendable () async throws -> Void
        )
    ) async throws {
        for check in [aStepAndItsCommandsCommitTogether, aRefusedCommandLeavesOnlyItsStepUnwritten] {
            let store = try await makeStore()
            try await closing(store.close) { try await check(store.machines, store.journal) }
        }
    }

    /// The command a paid order emits.
    struct Ship: JournaledCommand {
        static let journalKind = "conformance.ship"
        var order: String
        var name: String { "ship \(order)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    /// Orders that emit a `Ship` on `shipping` when paid, keyed `ship-<key>` when `keyed`.
    static func shipping(
        _ store: any MachineStore, _ journal: any CommandJournal, keyed: Bool
    ) -> DurableMachine<ConformanceOrderState, ConformanceOrderEvent, String> {
        let definition = StateMachineDefinition<ConformanceOrderState, ConformanceOrderEvent, String>(
            initial: .placed
        ) {
            In(.placed) { On(.pay, to: .paid) }
            In(.paid)
        }
        return DurableMachine("order", definition: definition, store: store, journal: journal) { step, order in
            step.transitions.contains { $0.target == .paid }
                ? [try MachineCommand(Ship(order: order), on: "shipping", key: keyed ? "ship-\(order)" : nil)] : []
        }
    }

    static func aStepAndItsCommandsCommitTogether(
        _ store: any MachineStore, _ journal: any CommandJournalManagement
    ) async throws {
        let check = "a step and the commands it emits commit together"
        try expect(
            store.enqueuesCommands(on: journal), check, "the store says it does not share the journal's database")
        let orders = shipping(store, journal, keyed: false)
        try await orders.start("o1", context: "o1")
        try await orders.send(.pay, to: "o1", id: "pay-1")
        let records = try await journal.allRecords()
        try expect(
            records.map(\.entry.idempotencyKey) == ["order/o1/2/0"] && records.first?.queue == "shipping"
                && records.first?.status == .pending, check, "the journal holds \(records.map(\.entry.idempotencyKey))")
        try expect(try await orders.runEffects(owner: "w") == 0, check, "a command waited in the outbox")
        try await orders.send(.pay, to: "o1", id: "pay-1")
        let again = try await journal.allRecords().count
        try expect(again == 1, check, "a replay of the step enqueued its command again: \(again) records")
    }

    static func aRefusedCommandLeavesOnlyItsStepUnwritten(
        _ store: any MachineStore, _ journal: any CommandJournalManagement
    ) async throws {
        let check = "a command the journal refuses leaves its step unwritten, and only that one"
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "ship-o0", kind: "other"), queue: "shipping", after: .zero)
        let orders = shipping(store, journal, keyed: true)
        let keys = (0..<16).map { "o\($0)" }
        for key in keys { try await orders.start(key, context: key) }
        let failures = try await withThrowingTaskGroup(of: (String, CommandJournalError?).self) { group in
            for key in keys {
                group.addTask {
                    do {
                        try await orders.send(.pay, to: key)
                        return (key, nil)
                    } catch let error as CommandJournalError {
                        return (key, error)
                    }
                }
            }
            var failures: [String: CommandJournalError] = [:]
            for try await (key, error) in group { failures[key] = error }
            return failures
        }
        try expect(
            failures == ["o0": .conflictingEntry(key: "ship-o0")], check, "the sends failed with \(failures)")
        for key in keys {
            let state = try await orders.instance(key)?.state
            try expect(state == (key == "o0" ? .placed : .paid), check, "\(key) is \(String(describing: state))")
        }
        let history = try await orders.history(of: "o0").count
        try expect(history == 1, check, "the refused step was written: \(history) steps")
        let shipped = Set(try await journal.allRecords().map(\.entry.idempotencyKey))
        try expect(shipped == Set(keys.map { "ship-\($0)" }), check, "the journal holds \(shipped.sorted())")
    }
}
