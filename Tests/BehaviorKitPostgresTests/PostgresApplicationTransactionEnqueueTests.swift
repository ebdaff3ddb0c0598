import BehaviorKitPostgres
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Logging
import PostgresNIO
import Testing

/// Enqueueing on the application's own connection, inside its transaction, and from plain SQL
/// with the table's enqueue function: the record commits or rolls back with the business
/// write, and a worker of the journal claims what committed.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresApplicationTransactionEnqueueTests {
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

    struct Abandon: Error {}

    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// A journal on a new database with an `orders` table, and a client of that database
    /// running for `body`.
    func withApplication(
        _ prefix: String, clock: (any WallClock)? = nil,
        _ body: @escaping @Sendable (OpenJournals, PostgresCommandJournal, PostgresClient) async throws -> Void
    ) async throws {
        let journals = try await OpenJournals(prefix)
        let journal = try await journals.open(clock: clock)
        try await journals.cluster.psql(
            "CREATE TABLE orders (id int PRIMARY KEY, cents int NOT NULL)", database: journals.database)
        let client = PostgresClient(
            configuration: .init(
                unixSocketPath: "\(journals.cluster.folder)/.s.PGSQL.\(journals.cluster.port)", username: "postgres",
                password: nil, database: journals.database))
        let running = Task { await client.run() }
        let result: Result<Void, any Error>
        do {
            try await withTimeLimit(.seconds(60), prefix) { try await body(journals, journal, client) }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        running.cancel()
        _ = await running.value
        await journals.closeAll()
        try result.get()
    }

    func orders(_ journals: OpenJournals) async throws -> String {
        try await journals.cluster.psql(
            "SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '') FROM orders",
            database: journals.database
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func registry() -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register(Charge.self)
        return registry
    }

    @Test func aCommandEnqueuedInACommittedTransactionIsClaimedByAWorker() async throws {
        try await withApplication("txcommit") { journals, journal, client in
            let payments = CommandQueue("payments", journal: journal)
            let logger = Self.logger
            let record = try await client.withTransaction(logger: logger) { connection in
                try await connection.query("INSERT INTO orders (id, cents) VALUES (2001, 990)", logger: logger)
                let record = try await payments.enqueue(
                    Charge(order: 2001, cents: 990), key: "order-2001/charge", on: connection)
                // Nothing was left prepared on the application's connection.
                let prepared = try await connection.query("SELECT count(*) FROM pg_prepared_statements", logger: logger)
                    .collect().first?.decode(Int.self)
                #expect(prepared == 0)
                return record
            }
            #expect(record.status == .pending && record.queue == "payments" && record.owner == nil)
            #expect(record.entry.kind == Charge.journalKind)
            #expect(try await self.orders(journals) == "2001")
            let worker = QueueWorker(payments, invoker: JournaledInvoker(journal: journal, registry: Self.registry()))
            #expect(try await worker.runDue() == 1)
            #expect(try await journal.record(forKey: "order-2001/charge")?.status == .done)
            #expect(Charge.charged.withLock { $0.contains(2001) })
        }
    }

    @Test func aRolledBackTransactionLeavesNoRecord() async throws {
        try await withApplication("txrollback") { journals, journal, client in
            let payments = CommandQueue("payments", journal: journal)
            let logger = Self.logger
            await #expect(throws: PostgresTransactionError.self) {
                try await client.withTransaction(logger: logger) { connection in
                    try await connection.query("INSERT INTO orders (id, cents) VALUES (2002, 450)", logger: logger)
                    try await payments.enqueue(
                        Charge(order: 2002, cents: 450), key: "order-2002/charge", on: connection)
                    throw Abandon()
                }
            }
            #expect(try await journal.allRecords().isEmpty)
            #expect(try await self.orders(journals) == "")
            let claim = try await journal.claim(
                10, from: "payments", concurrency: nil, lease: JournalLease(owner: "w", duration: .seconds(30)))
            #expect(claim.records.isEmpty && claim.nextDue == nil)
        }
    }

    @Test func theKeyAlreadyThereAnswersItsRecordAndAConflictLeavesTheTransactionUsable() async throws {
        try await withApplication("txconflict") { journals, journal, client in
            let logger = Self.logger
            let entry = try CommandRegistry.entry(
                kind: Charge.journalKind, arguments: Charge(order: 7, cents: 1), key: "k")
            let first = try await client.withTransaction(logger: logger) { connection in
                try await journal.enqueue(entry, queue: "payments", on: connection)
            }
            let again = try await client.withTransaction(logger: logger) { connection in
                try await journal.enqueue(entry, queue: "payments", on: connection)
            }
            #expect(again == first)
            let other = try CommandRegistry.entry(
                kind: Charge.journalKind, arguments: Charge(order: 7, cents: 2), key: "k")
            let refused = try await client.withTransaction(logger: logger) { connection -> CommandJournalError? in
                try await connection.query("INSERT INTO orders (id, cents) VALUES (7, 2)", logger: logger)
                do {
                    _ = try await journal.enqueue(other, queue: "payments", on: connection)
                    return nil
                } catch let error as CommandJournalError {
                    return error  // the transaction goes on, and commits the order
                }
            }
            #expect(refused == .conflictingEntry(key: "k"))
            #expect(try await self.orders(journals) == "7")
            #expect(try await journal.allRecords() == [first])
        }
    }

    @Test func aDelayedCommandFallsDueAfterItsDelay() async throws {
        let clock = ManualClock()
        try await withApplication("txdelay", clock: clock) { _, journal, client in
            let payments = CommandQueue("payments", journal: journal)
            _ = try await client.withTransaction(logger: Self.logger) { connection in
                try await payments.enqueue(
                    Charge(order: 3, cents: 5), key: "later", after: .seconds(60), on: connection)
            }
            let lease = JournalLease(owner: "w", duration: .seconds(30))
            let early = try await journal.claim(1, from: "payments", concurrency: nil, lease: lease)
            #expect(early.records.isEmpty)
            #expect(early.nextDue == .seconds(60))
            await clock.advance(by: .seconds(60))
            let due = try await journal.claim(1, from: "payments", concurrency: nil, lease: lease)
            #expect(due.records.map(\.id) == ["later"])
        }
    }

    @Test func aTransactionWithStepsEnqueuedInTheAppsTransactionRunsItsSteps() async throws {
        try await withApplication("txsteps") { _, journal, client in
            let ran = LockedValue<[Int]>([])
            var registry = CommandRegistry()
            registry.register("test.step", arguments: Int.self) { index in
                ClosureCommand("step \(index)") { ran.withLock { $0.append(index) } }
            }
            let invoker = JournaledInvoker(journal: journal, registry: registry)
            let steps = try (0..<2).map {
                try DurableStep("test.step", arguments: $0, command: ClosureCommand("s") {})
            }
            let order = invoker.transaction("order", key: "order-9", steps: steps)
            let payments = CommandQueue("payments", journal: journal)
            let logger = Self.logger
            let record = try await client.withTransaction(logger: logger) { connection in
                try await connection.query("INSERT INTO orders (id, cents) VALUES (9, 100)", logger: logger)
                return try await payments.enqueue(order, on: connection)
            }
            #expect(record.entry == (try order.entry))
            #expect(try await QueueWorker(payments, invoker: invoker).runDue() == 1)
            #expect(ran.withLock { $0 } == [0, 1])
            #expect(try await journal.record(forKey: "order-9")?.status == .done)
            #expect(try await journal.records(parentKey: "order-9").map(\.id) == ["order-9/0", "order-9/1"])
        }
    }

    @Test func theTraceContextGivenIsKeptForTheWorker() async throws {
        try await withApplication("txtrace") { _, journal, client in
            let entry = CommandJournalEntry(idempotencyKey: "traced", kind: "test")
            let context = ["traceparent": "00-abc-def-01"]
            let record = try await client.withTransaction(logger: Self.logger) { connection in
                try await journal.enqueue(entry, queue: "payments", traceContext: context, on: connection)
            }
            #expect(record.traceContext == context)
            let claim = try await journal.claim(
                1, from: "payments", concurrency: nil, lease: JournalLease(owner: "w", duration: .seconds(30)))
            #expect(claim.records.first?.traceContext == context)
        }
    }

    @Test func aQueueOnAnotherKindOfJournalOrAClosedJournalIsRefused() async throws {
        try await withApplication("txother") { _, journal, client in
            let memory = CommandQueue("q", journal: InMemoryCommandJournal())
            let error = await #expect(throws: CommandJournalError.self) {
                try await client.withConnection { connection in
                    try await memory.enqueue(CommandJournalEntry(idempotencyKey: "x", kind: "test"), on: connection)
                }
            }
            if case .unsupported(let operation) = error {
                #expect(operation.contains("InMemoryCommandJournal"), "\(operation)")
            } else {
                Issue.record("\(String(describing: error))")
            }
            let records = try await journal.allRecords()
            #expect(records.isEmpty)
            await journal.close()
            let closed = await #expect(throws: PostgresStoreError.self) {
                try await client.withConnection { connection in
                    try await journal.enqueue(
                        CommandJournalEntry(idempotencyKey: "x", kind: "test"), queue: "q", on: connection)
                }
            }
            #expect(closed?.code == .closed)
        }
    }

    /// The table's enqueue function, from plain SQL (psql): what commits a worker runs; a rollback
    /// leaves nothing; the key again answers its record; another entry under it, or a NULL, raises.
    @Test func theSQLFunctionEnqueuesFromPlainSQLInTheCallersTransaction() async throws {
        try await withApplication("txsql") { journals, journal, client in
            let cluster = journals.cluster
            let database = journals.database
            let enqueue = "\"\(journal.table)_enqueue\""
            let sequence = try await cluster.psql(
                """
                BEGIN;
                INSERT INTO orders (id, cents) VALUES (3001, 990);
                SELECT sequence FROM \(enqueue)('order-3001/charge', 'bank.charge', '{"cents":990,"order":3001}',
                    'payments');
                COMMIT;
                """, database: database
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try await cluster.psql(
                """
                BEGIN;
                INSERT INTO orders (id, cents) VALUES (3002, 450);
                SELECT sequence FROM \(enqueue)('order-3002/charge', 'bank.charge', '{"cents":450,"order":3002}',
                    'payments');
                ROLLBACK;
                """, database: database)
            let again = try await cluster.psql(
                """
                SELECT sequence FROM \(enqueue)(key => 'order-3001/charge', kind => 'bank.charge',
                    payload => '{"cents":990,"order":3001}', queue => 'payments', delay => interval '0')
                """, database: database
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(again == sequence)
            // Another entry under the key raises 23505; a NULL, 22004.
            for (sql, state) in [
                (#"SELECT * FROM \#(enqueue)('order-3001/charge', 'bank.charge', '{"cents":1}', 'payments')"#, "23505"),
                ("SELECT * FROM \(enqueue)('x', 'bank.charge', '{}', NULL)", "22004"),
            ] {
                let error = await #expect(throws: PSQLError.self) {
                    try await client.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).collect()
                }
                #expect(error?.serverInfo?[.sqlState] == state, "\(sql)")
            }
            #expect(try await self.orders(journals) == "3001")
            #expect(try await journal.allRecords().map(\.id) == ["order-3001/charge"])
            let record = try #require(try await journal.record(forKey: "order-3001/charge"))
            #expect(String(record.sequence) == sequence)
            #expect(record.entry.payload == Array(#"{"cents":990,"order":3001}"#.utf8))
            // The same command enqueued from Swift is the same entry: its JSON has the same bytes.
            let payments = CommandQueue("payments", journal: journal)
            #expect(try await payments.enqueue(Charge(order: 3001, cents: 990), key: "order-3001/charge") == record)

            let worker = QueueWorker(payments, invoker: JournaledInvoker(journal: journal, registry: Self.registry()))
            #expect(try await worker.runDue() == 1)
            #expect(try await journal.record(forKey: "order-3001/charge")?.status == .done)
            #expect(Charge.charged.withLock { $0.contains(3001) && !$0.contains(3002) })
        }
    }

    /// A delay from SQL counts on the server's clock: the record falls due that much later.
    @Test func theSQLFunctionsDelayPutsTheRecordOffUntilItIsDue() async throws {
        try await withApplication("txsqldelay") { journals, journal, _ in
            _ = try await journals.cluster.psql(
                "SELECT * FROM \"\(journal.table)_enqueue\"('later', 'test', '{}', 'payments', interval '1 hour')",
                database: journals.database)
            let claim = try await journal.claim(
                1, from: "payments", concurrency: nil, lease: JournalLease(owner: "w", duration: .seconds(30)))
            #expect(claim.records.isEmpty)
            let due = try #require(claim.nextDue)
            #expect(due > .seconds(3590) && due <= .seconds(3600), "\(due)")
        }
    }

    /// A journal's table made before the enqueue function existed gets it when it is opened.
    @Test func openingATableWithoutTheFunctionMakesIt() async throws {
        try await withApplication("txsqlmade") { journals, journal, _ in
            let enqueue = "\"\(journal.table)_enqueue\""
            try await journals.cluster.psql(
                "DROP FUNCTION \(enqueue)(text, text, json, text, interval)", database: journals.database)
            let reopened = try await journals.open(table: journal.table)
            _ = try await journals.cluster.psql(
                "SELECT * FROM \(enqueue)('made', 'test', '{}', 'payments')", database: journals.database)
            #expect(try await reopened.record(forKey: "made")?.queue == "payments")
        }
    }
}
