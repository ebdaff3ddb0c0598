import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import DurableMachines
import Foundation
import StateMachines
import Testing

/// One file for the journal and the machines: both views pass their kits, and a step commits
/// with the commands it emits.
struct SQLiteStoreTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    enum OrderState: String, Codable, Sendable { case placed, paid }
    enum OrderEvent: String, Codable, Sendable { case pay }

    struct Ship: JournaledCommand {
        static let journalKind = "test.ship"
        var order: String
        var name: String { "ship \(order)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    static let lifecycle = StateMachineDefinition<OrderState, OrderEvent, String>(initial: .placed) {
        In(.placed) { On(.pay, to: .paid) }
        In(.paid)
    }

    static func orders(_ store: SQLiteStore, key: String? = nil) -> DurableMachine<OrderState, OrderEvent, String> {
        DurableMachine("order", definition: lifecycle, store: store.machines, journal: store.journal) { step, order in
            step.transitions.contains { $0.target == .paid }
                ? [try MachineCommand(Ship(order: order), on: "shipping", key: key)] : []
        }
    }

    @Test func theMachinesViewPassesTheMachineStoreConformanceKit() async throws {
        let counter = FileCounter()
        try await MachineStoreConformance.check {
            try SQLiteStore(path: folder.path("machines-\(counter.next()).store")).machines
        }
    }

    @Test func theJournalViewPassesTheCommandJournalConformanceKit() async throws {
        let counter = FileCounter()
        try await CommandJournalConformance.check { clock in
            try SQLiteStore(path: folder.path("journal-\(counter.next()).store"), clock: clock).journal
        }
    }

    @Test func theStoreCommitsAStepWithItsCommands() async throws {
        let counter = FileCounter()
        try await MachineStoreConformance.checkCommandsInTheStepsCommit {
            let store = try SQLiteStore(path: folder.path("commands-\(counter.next()).store"))
            return (store.machines, store.journal, { try await store.close() })
        }
    }

    @Test func aJournalFileOpensAsAStoreWhoseFileOpensAsEitherView() async throws {
        let path = folder.path("journal.sqlite")
        let journal = try SQLiteCommandJournal(path: path)
        _ = try await journal.enqueue(CommandJournalEntry(idempotencyKey: "k", kind: "k"), queue: "q", after: .zero)
        try await journal.close()
        #expect {
            _ = try SQLiteMachineStore(path: path)
        } throws: { error in
            "\(error)".contains("SQLiteStore(path:)")
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.journal.record(forKey: "k") != nil)
        let orders = Self.orders(store)
        try await orders.start("o1", context: "o1")
        try await store.close()

        let machines = try SQLiteMachineStore(path: path)
        #expect(try await machines.instance(MachineKey(machine: "order", key: "o1")) != nil)
        try await machines.close()
        let reopened = try SQLiteCommandJournal(path: path)
        #expect(try await reopened.allRecords().count == 1)
        try await reopened.close()
    }
}
