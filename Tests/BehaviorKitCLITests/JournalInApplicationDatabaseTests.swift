import BehaviorKitSQLite
import Commands
import Foundation
import GRDB
import Testing

/// `behaviorkit journal` lists a journal kept in an application's own GRDB database (the
/// journal's migration beside the application's tables), and leaves the file as it was.
struct JournalInApplicationDatabaseTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("JournalInApplicationDatabaseTests-\(UUID().uuidString).sqlite").path

    @Test func theToolListsAJournalInTheApplicationsDatabase() async throws {
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try DatabasePool(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orders") { db in
            try db.execute(sql: "CREATE TABLE shipment (orderKey TEXT PRIMARY KEY)")
        }
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        let journal = SQLiteCommandJournal(database: database, path: path)
        let lease = JournalLease(owner: "app", duration: .seconds(30))
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "order-1", kind: "ship"), lease: lease)
        try await journal.settle("order-1", as: .done(output: nil), lease: lease)
        try database.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let result = try CLIRunner.run(["journal", path], timeout: .seconds(60))
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "#1 done        order-1  ship\n1 record: 1 done\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func theSubcommandsWorkOnAJournalInTheApplicationsDatabase() async throws {
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try DatabasePool(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orders") { db in
            try db.execute(sql: "CREATE TABLE shipment (orderKey TEXT PRIMARY KEY)")
        }
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        let journal = SQLiteCommandJournal(database: database, path: path)
        let lease = JournalLease(owner: "app", duration: .seconds(30))
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "order-1", kind: "ship"), lease: lease)
        try await journal.settle("order-1", as: .failed(reason: "no stock"), lease: lease)
        try database.close()

        let failed = try CLIRunner.run(["journal", "list", path, "--status", "failed"], timeout: .seconds(60))
        #expect(failed.exitCode == 0, "\(failed.standardError)")
        #expect(failed.standardOutput == "#1 failed      order-1  ship  (no stock)\n1 record\n")
        let retried = try CLIRunner.run(["journal", "retry", path, "order-1", "--yes"], timeout: .seconds(60))
        #expect(retried.standardOutput == "retried 'order-1': pending, due now; a recovery takes it\n")
        let show = try CLIRunner.run(["journal", "show", path, "order-1"], timeout: .seconds(60))
        #expect(show.standardOutput.contains("attempt history:\n  1 app ended "), "\(show.standardOutput)")
        #expect(show.standardOutput.hasSuffix(": no stock\n"), "the attempt that failed keeps its error")
    }
}
