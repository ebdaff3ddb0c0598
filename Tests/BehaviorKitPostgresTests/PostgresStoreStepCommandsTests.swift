import BehaviorKitSync
import BehaviorKitTesting
import Commands
import DurableMachines
import Foundation
import Logging
import PostgresNIO
import StateMachines
import Testing

@testable import BehaviorKitPostgres

/// `PostgresStore`: a machine step and the commands it emits commit in one transaction, as on
/// `SQLiteStore` — no outbox record, no relay; a command the journal refuses leaves the step
/// unwritten, and only that step.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresStoreStepCommandsTests {
    enum OrderState: String, Codable, Sendable { case placed, paid }
    enum OrderEvent: String, Codable, Sendable { case pay }

    static let lifecycle = StateMachineDefinition<OrderState, OrderEvent, String>(initial: .placed) {
        In(.placed) { On(.pay, to: .paid) }
        In(.paid)
    }

    struct Ship: JournaledCommand {
        static let journalKind = "test.ship"
        var order: String
        var name: String { "ship \(order)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    /// Orders that emit a `Ship` on `shipping` when paid, keyed `ship-<order>` when `keyed`.
    static func orders(
        _ machines: any MachineStore, _ journal: any CommandJournal, keyed: Bool = false
    ) -> DurableMachine<OrderState, OrderEvent, String> {
        DurableMachine("order", definition: lifecycle, store: machines, journal: journal) { step, order in
            step.transitions.contains { $0.target == .paid }
                ? [try MachineCommand(Ship(order: order), on: "shipping", key: keyed ? "ship-\(order)" : nil)] : []
        }
    }

    static func open(_ name: String) async throws -> PostgresStore {
        let journals = try await OpenJournals(name)
        return try await PostgresStore(url: patient(journals.url), reconnection: patientReconnection)
    }

    /// The kit's checks (`MachineStoreConformance.checkCommandsInTheStepsCommit`); the steps of
    /// the keys sent at once went to the server in batches, so a refusal in one was met there.
    @Test func theStoreCommitsAStepWithItsCommands() async throws {
        let stores = try await Self.checkKit("stepkit", patientReconnection)
        let counts = try #require(stores.last).machines.commits.counts
        #expect(counts.batches < counts.operations, "the sends went to the server together")
    }

    /// The same with lost commits not resolved (a batch then runs without the journal's
    /// `BEGIN`): a step and its commands still commit in one transaction.
    @Test func theStoreCommitsAStepWithItsCommandsWithoutResolvingLostCommits() async throws {
        var reconnection = patientReconnection
        reconnection.resolvesLostCommits = false
        _ = try await Self.checkKit("stepkitplain", reconnection)
    }

    /// Runs the kit on stores of new tables; answers them, closed.
    static func checkKit(
        _ name: String, _ reconnection: PostgresCommandJournal.Reconnection
    ) async throws -> [PostgresStore] {
        let journals = try await OpenJournals(name)
        let url = patient(journals.url)
        let opened = LockedValue<[PostgresStore]>([])
        try await MachineStoreConformance.checkCommandsInTheStepsCommit {
            let number = opened.withLock { $0.count + 1 }
            let store = try await PostgresStore(
                url: url, table: "\(name)_\(number)", tablePrefix: "\(name)_machines_\(number)",
                reconnection: reconnection)
            opened.withLock { $0.append(store) }
            return (store.machines, store.journal, { await store.close() })
        }
        return opened.withLock { $0 }
    }

    /// In the application's own transaction, a step's commands commit with it or not at all; a
    /// refused command fails the step and writes nothing of it, and the transaction can go on.
    @Test func inTheAppsTransactionTheCommandsCommitWithItOrNotAtAll() async throws {
        let journals = try await OpenJournals("stepapp")
        let store = try await PostgresStore(url: patient(journals.url), reconnection: patientReconnection)
        let cluster = journals.cluster
        let client = PostgresClient(
            configuration: .init(
                unixSocketPath: "\(cluster.folder)/.s.PGSQL.\(cluster.port)", username: "postgres", password: nil,
                database: journals.database))
        let running = Task { await client.run() }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let orders = Self.orders(store.machines, store.journal)
        struct Declined: Error {}
        try await orders.start("o1", context: "o1")
        await #expect(throws: PostgresTransactionError.self) {
            try await client.withTransaction(logger: logger) { connection in
                try await orders.send(.pay, to: "o1", id: "r1", in: store.machines.transaction(connection))
                throw Declined()
            }
        }
        #expect(try await orders.instance("o1")?.state == .placed)
        #expect(try await store.journal.allRecords().isEmpty)
        let step = try await client.withTransaction(logger: logger) { connection in
            try await orders.send(.pay, to: "o1", id: "r1", in: store.machines.transaction(connection))
        }
        #expect(!step.isReplay)
        #expect(try await orders.instance("o1")?.state == .paid)
        #expect(try await store.journal.allRecords().map(\.entry.idempotencyKey) == ["order/o1/2/0"])
        // A command whose key another command holds: the step fails, nothing of it is written,
        // and the rest of the transaction commits.
        _ = try await store.journal.enqueue(
            CommandJournalEntry(idempotencyKey: "ship-o2", kind: "other"), queue: "shipping", after: .zero)
        let keyed = Self.orders(store.machines, store.journal, keyed: true)
        try await keyed.start("o2", context: "o2")
        try await client.withTransaction(logger: logger) { connection in
            do {
                try await keyed.send(.pay, to: "o2", in: store.machines.transaction(connection))
                Issue.record("the step committed with a command the journal refuses")
            } catch let error as PostgresStoreError {
                #expect(error.code == .invalidValue && "\(error)".contains("ship-o2"))
            }
            try await connection.query("SELECT 1", logger: logger)
        }
        #expect(try await keyed.instance("o2")?.state == .placed)
        #expect(try await keyed.history(of: "o2").count == 1)
        running.cancel()
        await store.close()
    }

    /// A journal opened apart, even on the same table, is not the store's: its commands go through
    /// the outbox, and the relay enqueues them.
    @Test func aJournalOpenedApartGetsTheCommandsThroughTheOutbox() async throws {
        let journals = try await OpenJournals("steprelay")
        let store = try await PostgresStore(url: patient(journals.url), reconnection: patientReconnection)
        let apart = try await journals.open(table: PostgresCommandJournal.defaultTable)
        #expect(!store.machines.enqueuesCommands(on: apart))
        let orders = Self.orders(store.machines, apart)
        try await orders.start("o1", context: "o1")
        try await orders.send(.pay, to: "o1")
        #expect(try await apart.allRecords().isEmpty)
        #expect(try await orders.runEffects(owner: "w") == 1)
        #expect(try await apart.allRecords().map(\.entry.idempotencyKey) == ["order/o1/2/0"])
        await store.close()
        await journals.closeAll()
    }
}
