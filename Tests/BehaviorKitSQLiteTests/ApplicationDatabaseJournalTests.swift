import BehaviorKitSQLite
import Commands
import Foundation
import GRDB
import Testing

/// A journal kept in the application's own GRDB database, as the docs recommend: the reader
/// recognises it by its table and reads it without writing; the file-owning journal refuses
/// it, naming what to use instead.
struct ApplicationDatabaseJournalTests {
    let folder: TemporaryFolder
    let lease = JournalLease(owner: "w", duration: .seconds(30))

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The application's database: its own table, the journal's, and three records.
    static func applicationDatabase(at path: String) async throws {
        let database = try DatabasePool(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orders") { db in
            try db.execute(sql: "CREATE TABLE shipment (orderKey TEXT PRIMARY KEY)")
        }
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        let journal = SQLiteCommandJournal(database: database, path: path)
        let lease = JournalLease(owner: "app", duration: .seconds(30))
        for key in ["order-1", "order-2", "order-3"] {
            _ = try await journal.begin(CommandJournalEntry(idempotencyKey: key, kind: "ship"), lease: lease)
        }
        try await journal.settle("order-1", as: .done(output: nil), lease: lease)
        try database.close()
    }

    @Test func theReaderReadsAJournalInTheApplicationsDatabaseWithoutChangingIt() async throws {
        let path = folder.path("app.sqlite")
        try await Self.applicationDatabase(at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let records = try SQLiteCommandJournalReader(path: path).allRecords()
        #expect(records.map(\.entry.idempotencyKey) == ["order-1", "order-2", "order-3"])
        #expect(records.map(\.status) == [.done, .pending, .pending])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func theFileOwningJournalRefusesTheApplicationsDatabaseNamingWhatToUse() async throws {
        let path = folder.path("app.sqlite")
        try await Self.applicationDatabase(at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteStoreError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error.code == .notAJournal)
        #expect(error.reason.contains("SQLiteCommandJournal(database:path:)"), "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aTableNamedCommandRecordWithOtherColumnsIsStillNotAJournal() throws {
        let path = folder.path("other.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE commandRecord (id INTEGER PRIMARY KEY, note TEXT)") }
        try queue.close()
        let error = try #require(throws: SQLiteStoreError.self) { try SQLiteCommandJournalReader(path: path) }
        #expect(error.code == .notAJournal)
    }
}
