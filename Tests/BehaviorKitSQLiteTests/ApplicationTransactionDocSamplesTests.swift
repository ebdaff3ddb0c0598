import BehaviorKitSQLite
import BehaviorKitSync
import Commands
import GRDB
import Testing

/// The sample of the guide's "Enqueue in your own transaction" (`GettingStarted.md`) and of the
/// README's "Enqueue in your own transaction", as written there but for the file's folder: a
/// worker already running claims the command once the transaction committed, at its next look.
struct ApplicationTransactionDocSamplesTests {
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

    @Test func aCommandEnqueuedInYourTransactionCommitsWithItAndRuns() async throws {
        let folder = try TemporaryFolder()
        let dbPool = try DatabasePool(path: folder.path("shop.sqlite"))
        var registry = CommandRegistry()
        registry.register(Charge.self)

        var migrator = DatabaseMigrator()
        migrator.registerMigration("orders") { db in
            try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY, cents INTEGER NOT NULL)")
        }
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        try migrator.migrate(dbPool)
        let journal = SQLiteCommandJournal(database: dbPool, path: dbPool.path)
        let payments = CommandQueue("payments", journal: journal)

        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let worker = Task { await QueueWorker(payments, invoker: invoker, pollInterval: .milliseconds(10)).run() }
        try await dbPool.write { db in
            try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (?, ?)", arguments: [42, 990])
            try payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge", in: db)
        }  // both are written, or neither
        while try await journal.record(forKey: "order-42/charge")?.status != .done {
            try await Task.sleep(for: .milliseconds(10))
        }
        worker.cancel()
        _ = await worker.value
        #expect(Charge.charged.withLock { $0 } == [42])
        #expect(try await dbPool.read { db in try Int.fetchAll(db, sql: "SELECT id FROM orders") } == [42])
    }
}
