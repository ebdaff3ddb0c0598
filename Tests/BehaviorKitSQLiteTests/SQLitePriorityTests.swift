import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import Foundation
import GRDB
import Testing

/// Priorities on SQLite through the store's own ways in: enqueue in the application's GRDB
/// transaction, and the data of the schema before priorities, in the application's database
/// (its migrator adds the column) and in a journal file of its own (opening adds it).
struct SQLitePriorityTests {
    let folder: TemporaryFolder
    let counter = FileCounter()

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The migrations up to `last` (all of them when `nil`) on the database at `path`.
    static func migrate(_ database: DatabasePool, upTo last: String? = nil) throws {
        var migrator = DatabaseMigrator()
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        if let last { try migrator.migrate(database, upTo: last) } else { try migrator.migrate(database) }
    }

    /// Writes `entry` on `queue`, due at once, as a journal before priorities wrote it.
    static func writeAsBeforePriorities(_ entry: CommandJournalEntry, queue: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO commandRecord
                    (key, kind, payload, parentKey, status, owner, leaseExpiresAt, queue, attempts, createdAt, updatedAt)
                VALUES (?, ?, ?, NULL, 'pending', NULL, 0, ?, 0, 0, 0)
                """, arguments: [entry.idempotencyKey, entry.kind, Data(entry.payload), queue])
    }

    @Test func inTheApplicationsDatabase() async throws {
        let folder = self.folder
        let counter = self.counter
        try await CommandJournalConformance.checkPriorities(
            of: .init(
                enqueueInTransaction: { clock, job, queue in
                    let path = folder.path("transaction-\(counter.next()).sqlite")
                    let database = try DatabasePool(path: path)
                    try Self.migrate(database)
                    let journal = SQLiteCommandJournal(database: database, path: path, clock: clock)
                    let record = try await database.write { db in
                        try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY)")
                        return try journal.enqueue(
                            job.entry, queue: queue, after: job.delay, priority: job.priority, in: db)
                    }
                    return (journal, record)
                },
                journalOverPreviousSchema: { clock, entry, queue in
                    let path = folder.path("previous-\(counter.next()).sqlite")
                    let database = try DatabasePool(path: path)
                    try Self.migrate(database, upTo: "behaviorkit-command-journal-traces")
                    try await database.write { db in try Self.writeAsBeforePriorities(entry, queue: queue, db) }
                    try Self.migrate(database)
                    return SQLiteCommandJournal(database: database, path: path, clock: clock)
                }))
    }

    @Test func inAJournalFileOfItsOwn() async throws {
        let folder = self.folder
        let counter = self.counter
        try await CommandJournalConformance.checkPriorities(
            of: .init(
                journalOverPreviousSchema: { clock, entry, queue in
                    let path = folder.path("previous-own-\(counter.next()).journal")
                    let created = try SQLiteCommandJournal(path: path, clock: clock)
                    try await created.close()
                    // The file as the release before priorities left it.
                    let database = try DatabaseQueue(path: path)
                    try await database.write { db in
                        try db.execute(sql: "DROP INDEX commandRecordClaim")
                        try db.execute(sql: "ALTER TABLE commandRecord DROP COLUMN priority")
                        try Self.writeAsBeforePriorities(entry, queue: queue, db)
                    }
                    try database.close()
                    let read = try SQLiteCommandJournalReader(path: path).allRecords()
                    #expect(read.map(\.priority) == [CommandQueue.defaultPriority])
                    return try SQLiteCommandJournal(path: path, clock: clock)
                }))
    }

    @Test func theClaimWalksTheIndexOfPriorities() async throws {
        let path = folder.path("plan.journal")
        _ = try SQLiteCommandJournal(path: path)
        let database = try DatabaseQueue(path: path)
        let plan = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT key, owner FROM commandRecord
                    WHERE status = 'pending' AND parentKey IS NULL AND queue IS ?
                        AND (leaseExpiresAt <= ? OR (owner = ? AND leaseExpiresAt IS NOT NULL))
                    ORDER BY priority DESC, sequence LIMIT ?
                    """, arguments: ["q", 0, nil, 10]
            ).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("commandRecordClaim") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
        try database.close()
    }
}
