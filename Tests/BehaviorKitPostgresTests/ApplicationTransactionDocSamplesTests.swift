import BehaviorKitPostgres
import BehaviorKitSync
import Commands
import Foundation
import Logging
import PostgresNIO
import Testing

/// The samples of the guide's "Enqueue in your own transaction" and "From any language"
/// (`GettingStarted.md`) and of the README's "The journal on PostgreSQL", as written there but
/// for the server: the command enqueued in the app's transaction, and the one enqueued from SQL,
/// are claimed by a worker already running once their transactions committed.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresApplicationTransactionDocSamplesTests {
    struct Charge: JournaledCommand {
        static let journalKind = "bank.charge"
        static let charged = LockedValue<[Int]>([])
        let order: Int
        let cents: Int
        var name: String { "charge \(order)" }
        var canUndo: Bool { false }
        func execute() async throws { Self.charged.withLock { $0.append(order) } }
        func undo() async throws {}
    }

    @Test func commandsEnqueuedInYourTransactionAndFromSQLRun() async throws {
        let cluster = try await PostgresTestCluster.shared()
        let database = try await cluster.makeDatabase("enqueuedocs")
        try await cluster.psql("CREATE TABLE orders (id int PRIMARY KEY, cents int NOT NULL)", database: database)
        let configuration = PostgresClient.Configuration(
            unixSocketPath: "\(cluster.folder)/.s.PGSQL.\(cluster.port)", username: "postgres", password: nil,
            database: database)
        let client = PostgresClient(configuration: configuration)
        let running = Task { await client.run() }
        let logger = Logger(label: "shop") { _ in SwiftLogNoOpLogHandler() }
        var registry = CommandRegistry()
        registry.register(Charge.self)
        let journal = try await PostgresCommandJournal(configuration: configuration)
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let worker: Task<Void, Never>
        do {
            let payments = CommandQueue("payments", journal: journal)
            worker = Task { await QueueWorker(payments, invoker: invoker, pollInterval: .milliseconds(10)).run() }
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("INSERT INTO orders (id, cents) VALUES (42, 990)", logger: logger)
                try await payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge", on: connection)
            }  // both are written, or neither
        }
        try await cluster.psql(
            """
            BEGIN;
            INSERT INTO orders (id, cents) VALUES (43, 450);
            SELECT sequence FROM behaviorkit_command_journal_enqueue(
                'order-43/charge', 'bank.charge', '{"cents":450,"order":43}', 'payments', delay => interval '0');
            COMMIT;
            """, database: database)
        try await withTimeLimit(.seconds(30), "the worker runs both") {
            for key in ["order-42/charge", "order-43/charge"] {
                while try await journal.record(forKey: key)?.status != .done {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
        }
        worker.cancel()
        _ = await worker.value
        await journal.close()
        running.cancel()
        _ = await running.value
        #expect(Charge.charged.withLock { $0.sorted() } == [42, 43])
        let orders = try await cluster.psql(
            "SELECT string_agg(id::text, ',' ORDER BY id) FROM orders", database: database)
        #expect(orders.trimmingCharacters(in: .whitespacesAndNewlines) == "42,43")
    }
}
