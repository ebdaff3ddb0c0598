import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import GRDB
import Testing

/// Enqueueing inside a transaction of the application's GRDB database: the record commits or
/// rolls back with the business write, and a worker of the journal claims what committed.
struct ApplicationTransactionEnqueueTests {
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

    let folder: TemporaryFolder
    let clock = ManualClock()
    let database: DatabasePool
    let journal: SQLiteCommandJournal
    let payments: CommandQueue

    init() throws {
        folder = try TemporaryFolder()
        let path = folder.path("app.sqlite")
        database = try DatabasePool(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orders") { db in
            try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY, cents INTEGER NOT NULL)")
        }
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        journal = SQLiteCommandJournal(database: database, path: path, clock: clock)
        payments = CommandQueue("payments", journal: journal)
    }

    func orders() async throws -> [Int] {
        try await database.read { db in try Int.fetchAll(db, sql: "SELECT id FROM orders ORDER BY id") }
    }

    func worker(_ registry: CommandRegistry) -> QueueWorker {
        QueueWorker(payments, invoker: JournaledInvoker(journal: journal, registry: registry, clock: clock))
    }

    @Test func aCommandEnqueuedInACommittedTransactionIsClaimedByAWorker() async throws {
        let record = try await database.write { [payments] db in
            try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (?, ?)", arguments: [1001, 990])
            return try payments.enqueue(Charge(order: 1001, cents: 990), key: "order-1001/charge", in: db)
        }
        #expect(record.status == .pending && record.queue == "payments" && record.owner == nil)
        #expect(record.entry.kind == Charge.journalKind)
        #expect(try await journal.record(forKey: "order-1001/charge")?.sequence == record.sequence)
        #expect(try await orders() == [1001])

        var registry = CommandRegistry()
        registry.register(Charge.self)
        #expect(try await worker(registry).runDue() == 1)
        #expect(try await journal.record(forKey: "order-1001/charge")?.status == .done)
        #expect(Charge.charged.withLock { $0.contains(1001) })
    }

    @Test func aSleepingWorkerIsWokenByTheCommitOfTheAppsTransaction() async throws {
        var registry = CommandRegistry()
        registry.register(Charge.self)
        let worker = QueueWorker(
            payments, invoker: JournaledInvoker(journal: journal, registry: registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        await clock.waitForSleepers(count: 1)  // its poll, on a clock that does not move
        try await database.write { [payments] db in
            try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (?, ?)", arguments: [1010, 990])
            _ = try payments.enqueue(Charge(order: 1010, cents: 990), key: "order-1010/charge", in: db)
        }
        var woken = false
        for _ in 0..<4_000 where !woken {  // 5 ms looks, 20 s at most
            woken = Charge.charged.withLock { $0.contains(1010) }
            if !woken { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(woken, "the worker did not claim the committed command: \(worker.statistics)")
        run.cancel()
        await run.value
    }

    @Test func aRolledBackTransactionLeavesNoRecord() async throws {
        await #expect(throws: Abandon.self) {
            try await database.write { [payments] db in
                try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (?, ?)", arguments: [1002, 450])
                try payments.enqueue(Charge(order: 1002, cents: 450), key: "order-1002/charge", in: db)
                throw Abandon()
            }
        }
        #expect(try await journal.allRecords().isEmpty)
        #expect(try await orders().isEmpty)
        let claim = try await journal.claim(
            10, from: "payments", concurrency: nil, lease: JournalLease(owner: "w", duration: .seconds(30)))
        #expect(claim.records.isEmpty && claim.nextDue == nil)
    }

    @Test func theKeyAlreadyThereAnswersItsRecordAndAConflictLeavesTheTransactionUsable() async throws {
        let entry = try CommandRegistry.entry(kind: Charge.journalKind, arguments: Charge(order: 7, cents: 1), key: "k")
        let first = try await database.write { [journal] db in try journal.enqueue(entry, queue: "payments", in: db) }
        let again = try await database.write { [journal] db in try journal.enqueue(entry, queue: "payments", in: db) }
        #expect(again == first)

        let other = try CommandRegistry.entry(kind: Charge.journalKind, arguments: Charge(order: 7, cents: 2), key: "k")
        let refused = try await database.write { [journal] db -> CommandJournalError? in
            try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (7, 2)")
            do {
                _ = try journal.enqueue(other, queue: "payments", in: db)
                return nil
            } catch let error as CommandJournalError {
                return error  // the transaction goes on, and commits the order
            }
        }
        #expect(refused == .conflictingEntry(key: "k"))
        #expect(try await orders() == [7])
        #expect(try await journal.allRecords() == [first])
    }

    @Test func aDelayedCommandFallsDueAfterItsDelay() async throws {
        _ = try await database.write { [payments] db in
            try payments.enqueue(Charge(order: 3, cents: 5), key: "later", after: .seconds(60), in: db)
        }
        let lease = JournalLease(owner: "w", duration: .seconds(30))
        let early = try await journal.claim(1, from: "payments", concurrency: nil, lease: lease)
        #expect(early.records.isEmpty)
        #expect(early.nextDue == .seconds(60))
        await clock.advance(by: .seconds(60))
        let due = try await journal.claim(1, from: "payments", concurrency: nil, lease: lease)
        #expect(due.records.map(\.id) == ["later"])
    }

    @Test func aTransactionWithStepsEnqueuedInTheAppsTransactionRunsItsSteps() async throws {
        let ran = LockedValue<[Int]>([])
        var registry = CommandRegistry()
        registry.register("test.step", arguments: Int.self) { index in
            ClosureCommand("step \(index)") { ran.withLock { $0.append(index) } }
        }
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let steps = try (0..<2).map { try DurableStep("test.step", arguments: $0, command: ClosureCommand("s") {}) }
        let order = invoker.transaction("order", key: "order-9", steps: steps)
        let record = try await database.write { [payments] db in
            try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (9, 100)")
            return try payments.enqueue(order, in: db)
        }
        #expect(record.entry == (try order.entry))
        #expect(try await worker(registry).runDue() == 1)
        #expect(ran.withLock { $0 } == [0, 1])
        #expect(try await journal.record(forKey: "order-9")?.status == .done)
        #expect(try await journal.records(parentKey: "order-9").map(\.id) == ["order-9/0", "order-9/1"])
    }

    @Test func theTraceContextGivenIsKeptForTheWorker() async throws {
        let entry = CommandJournalEntry(idempotencyKey: "traced", kind: "test")
        _ = try await database.write { [journal] db in
            try journal.enqueue(entry, queue: "payments", traceContext: ["traceparent": "00-abc-def-01"], in: db)
        }
        let claim = try await journal.claim(
            1, from: "payments", concurrency: nil, lease: JournalLease(owner: "w", duration: .seconds(30)))
        #expect(claim.records.first?.traceContext == ["traceparent": "00-abc-def-01"])
    }

    @Test func aJournalWithItsOwnFileOrAnotherKindOfJournalIsRefused() async throws {
        let own = try SQLiteCommandJournal(path: folder.path("own.journal"))
        let entry = CommandJournalEntry(idempotencyKey: "x", kind: "test")
        let error = try await database.write { db in
            #expect(throws: CommandJournalError.self) { try own.enqueue(entry, queue: "q", in: db) }
            let memory = CommandQueue("q", journal: InMemoryCommandJournal())
            return #expect(throws: CommandJournalError.self) { try memory.enqueue(entry, in: db) }
        }
        guard case .unsupported(let operation) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(operation.contains("InMemoryCommandJournal"), "\(operation)")
        #expect(try await journal.allRecords().isEmpty)
        try await own.close()
    }

    @Test func aDatabaseWithoutTheJournalsTablesIsRefusedWithTheJournalsError() async throws {
        let path = folder.path("bare.sqlite")
        let bare = try DatabaseQueue(path: path)
        let journal = SQLiteCommandJournal(database: bare, path: path)
        let entry = CommandJournalEntry(idempotencyKey: "x", kind: "test")
        let error = try await bare.write { db in
            #expect(throws: SQLiteStoreError.self) { try journal.enqueue(entry, queue: "q", in: db) }
        }
        #expect(error?.path == path)
        #expect(error?.reason.contains("commandRecord") == true, "\(String(describing: error))")
    }
}
