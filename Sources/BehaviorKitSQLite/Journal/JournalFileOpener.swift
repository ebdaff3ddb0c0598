import Commands
import Foundation
import GRDB

/// Opens a journal file for writing, once ``JournalFileInspection`` found it sound: creates the
/// table in a new file, upgrades a layout-1 journal, and sets the durability. Several processes
/// may open one new file at once: creation happens in one IMMEDIATE transaction, and the
/// others find it done.
enum JournalFileOpener {
    static func open(
        _ path: String, inspection: JournalFileInspection, durability: SQLiteCommandJournal.Durability,
        busyTimeout: Duration
    ) throws(SQLiteStoreError) -> DatabasePool {
        guard inspection.layout != .applicationDatabase else {
            throw SQLiteStoreError(
                code: .notAJournal, path: path,
                reason: "it is an application's database with a journal table: the application opens it with "
                    + "SQLiteCommandJournal(database:path:), and SQLiteCommandJournalReader reads it")
        }
        var configuration = Configuration()
        configuration.busyMode = .polling(for: busyTimeout)
        do {
            let pool = try retryingWhileBusy(for: busyTimeout) {
                try DatabasePool(path: path, configuration: configuration)
            }
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue)")
            }
            if inspection.layout != .layout2 {
                try pool.write { db in try prepare(db, path: path) }
                // Put the identity into the main file's header now, where opening looks for it.
                try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            }
            // The log of attempts and the index the management API reads, the priorities and the
            // paused queues, the partitions, the schedules, the rate limits and the pickups, added to older files.
            try pool.write { db in
                try CommandJournalSchema.createManagementTables(db)
                try CommandJournalSchema.addPriorities(db)
                try db.execute(sql: CommandJournalSchema.createPausedQueues)
                try CommandJournalSchema.addPartitions(db)
                try db.execute(sql: CommandJournalSchema.createSchedules)
                try db.execute(sql: CommandJournalSchema.createRateLimits)
                try CommandJournalSchema.addPickups(db)
            }
            return pool
        } catch {
            throw SQLiteStoreError(path: path, error, opening: true)
        }
    }

    /// Creates or upgrades the table, inside the write transaction: whatever another process
    /// did in the meantime is seen here.
    private static func prepare(_ db: Database, path: String) throws {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let columns = try CommandJournalSchema.columns(db)
        if applicationID == CommandJournalSchema.applicationID && CommandJournalSchema.isLayout2(columns) {
            return
        }
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        if columns == CommandJournalSchema.layout1Columns && applicationID == 0 {
            try CommandJournalSchema.upgradeFromLayout1(db)
        } else if tables.isEmpty && applicationID == 0 {
            try CommandJournalSchema.create(db)
        } else {
            throw SQLiteStoreError(
                code: .notAJournal, path: path, reason: "it holds the tables " + tables.joined(separator: ", "))
        }
        try db.execute(sql: "PRAGMA application_id = \(CommandJournalSchema.applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(Int32.random(in: 1...Int32.max))")
    }

}
