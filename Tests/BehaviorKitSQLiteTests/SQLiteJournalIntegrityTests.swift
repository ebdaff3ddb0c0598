import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import GRDB
import Testing

/// Damage `quick_check` cannot see, and the journal in the application's own database.
struct SQLiteJournalIntegrityTests {
    let folder: TemporaryFolder
    let lease = JournalLease(owner: "w", duration: .seconds(30))

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Makes the key index miss a row: the table's UNIQUE constraint is hidden while one more
    /// row is written, then put back (as a bug or a bad tool could leave a file).
    static func damageTheKeyIndex(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            let table = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'commandRecord'") ?? ""
            let index =
                try Int.fetchOne(
                    db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_commandRecord_1'") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(
                sql: "UPDATE sqlite_master SET sql = replace(sql, 'key TEXT NOT NULL UNIQUE', 'key TEXT NOT NULL') "
                    + "WHERE name = 'commandRecord'")
            try db.execute(sql: "DELETE FROM sqlite_master WHERE name = 'sqlite_autoindex_commandRecord_1'")
            try db.execute(sql: "PRAGMA writable_schema = RESET")
            try db.execute(
                sql: "INSERT INTO commandRecord (key, kind, payload, status) VALUES ('k1', 'test', x'', 'pending')")
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE name = 'commandRecord'", arguments: [table])
            try db.execute(
                sql: "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) "
                    + "VALUES ('index', 'sqlite_autoindex_commandRecord_1', 'commandRecord', ?, NULL)",
                arguments: [index])
            try db.execute(sql: "PRAGMA writable_schema = RESET")
        }
    }

    @Test func aDamagedKeyIndexIsFoundAndTheFileLeftAsItIs() async throws {
        let path = folder.path("damaged.journal")
        do {
            let journal = try SQLiteCommandJournal(path: path)
            for index in 0..<50 {
                _ = try await journal.begin(
                    CommandJournalEntry(idempotencyKey: "k\(index)", kind: "test"), lease: lease)
            }
        }
        try Self.damageTheKeyIndex(path)
        let quick = try await DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "PRAGMA quick_check")
        }
        #expect(quick == ["ok"], "quick_check alone sees nothing wrong")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for verification in [SQLiteCommandJournal.Verification.quick, .full] {
            let error = Self.openingError(path, verification)
            #expect(error?.code == .corrupt)
            #expect(error?.reason.contains("sqlite_autoindex_commandRecord_1") == true, "\(String(describing: error))")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    static func openingError(
        _ path: String, _ verification: SQLiteCommandJournal.Verification
    ) -> SQLiteStoreError? {
        do {
            _ = try SQLiteCommandJournal(path: path, verification: verification)
            return nil
        } catch {
            return error
        }
    }

    @Test func anEmptyPathIsRefusedByName() throws {
        #expect {
            try SQLiteCommandJournal(path: "")
        } throws: { error in
            (error as? SQLiteStoreError)?.code == .cannotOpen
                && "\(error)".contains("the path is empty")
        }
    }

    @Test func recordsCarryTimesAndSettledOnesArePrunedByAge() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("times.journal"))
        let before = Date().addingTimeInterval(-1)
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: lease)
        try await journal.settle("k", as: .done(output: nil), lease: lease)
        let record = try #require(try await journal.record(forKey: "k"))
        #expect(record.createdAt >= before && record.updatedAt >= record.createdAt)
        #expect(try await journal.prune(settledBefore: before) == 0)
        #expect(try await journal.prune(settledBefore: Date().addingTimeInterval(1)) == 1)
        #expect(try await journal.allRecords().isEmpty)
    }

    @Test func inTheApplicationsDatabaseABusinessWriteAndASettlementCommitTogether() async throws {
        let database = try DatabasePool(path: folder.path("app.sqlite"))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orders") { db in
            try db.execute(sql: "CREATE TABLE shipment (orderKey TEXT PRIMARY KEY)")
        }
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        let journal = SQLiteCommandJournal(database: database, path: database.path)
        let invoker = JournaledInvoker(journal: journal)
        struct Refused: Error {}
        let ship = ClosureCommand("ship") {
            let context = try #require(DurableContext.current)
            try await database.write { db in
                try db.execute(sql: "INSERT INTO shipment (orderKey) VALUES (?)", arguments: [context.key])
                try SQLiteCommandJournal.settle(context, as: .done(output: nil), in: db)
            }
        }
        #expect(
            try await invoker.run(ship, as: CommandJournalEntry(idempotencyKey: "order-1", kind: "ship")) == .executed)
        let refused = ClosureCommand("ship") {
            let context = try #require(DurableContext.current)
            try await database.write { db in
                try db.execute(sql: "INSERT INTO shipment (orderKey) VALUES (?)", arguments: [context.key])
                try SQLiteCommandJournal.settle(context, as: .done(output: nil), in: db)
                throw Refused()  // the transaction rolls back: neither the row nor the settlement stays
            }
        }
        await #expect(throws: Refused.self) {
            _ = try await invoker.run(refused, as: CommandJournalEntry(idempotencyKey: "order-2", kind: "ship"))
        }
        let shipments = try await database.read { db in try String.fetchAll(db, sql: "SELECT orderKey FROM shipment") }
        #expect(shipments == ["order-1"])
        #expect(try await journal.record(forKey: "order-1")?.status == .done)
        #expect(try await journal.record(forKey: "order-2")?.status == .failed)
    }
}

extension SQLiteJournalIntegrityTests {
    @Test func aTransactionOfThreeStepsCostsFourCommits() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("commits.journal"))
        let invoker = JournaledInvoker(journal: journal, leaseDuration: .seconds(3600))
        let steps = try (0..<3).map {
            try DurableStep("test.step", arguments: $0, command: ClosureCommand("step \($0)") {})
        }
        try await invoker.transaction("order", key: "t", steps: steps).run()
        #expect(journal.writeCounts.transactions == 4)
        #expect(try await journal.allRecords().map(\.status) == [.done, .done, .done, .done])
    }

    @Test func aDelayedCommandSurvivesARestartAndRunsOnce() async throws {
        let path = folder.path("timer.journal")
        let clock = ManualClock()
        let count = LockedValue(0)
        var registry = CommandRegistry()
        registry.register("test.remind", arguments: Int.self) { _ in
            ClosureCommand("remind") { count.withLock { $0 += 1 } }
        }
        do {
            let journal = try SQLiteCommandJournal(path: path, clock: clock)
            try await CommandQueue("reminders", journal: journal).enqueue(
                kind: "test.remind", arguments: 1, key: "r", after: .seconds(60))
        }
        await clock.advance(by: .seconds(60))
        let journal = try SQLiteCommandJournal(path: path, clock: clock)
        let queue = CommandQueue("reminders", journal: journal)
        let worker = QueueWorker(queue, invoker: JournaledInvoker(journal: journal, registry: registry, clock: clock))
        #expect(try await worker.runDue() == 1)
        #expect(try await worker.runDue() == 0)
        #expect(count.withLock { $0 } == 1)
    }
}
