import Commands
import Foundation
import GRDB

/// The schedules (``CommandJournalManagement/saveSchedule(_:)``): one row per schedule, its definition as
/// JSON, with its revision, the time of its save and its last tick.
extension CommandJournalSchema {
    static let schedulesTable = "commandSchedule"

    static let createSchedules = """
        CREATE TABLE IF NOT EXISTS commandSchedule (
            name TEXT PRIMARY KEY NOT NULL,
            definition BLOB NOT NULL,
            revision INTEGER NOT NULL,
            savedAt INTEGER NOT NULL,
            lastTick INTEGER
        ) WITHOUT ROWID;
        """

    /// Refuses the call in an application's database whose migrator has not added the table.
    static func checkSchedules(_ db: Database) throws {
        guard try db.tableExists(schedulesTable) else {
            throw CommandJournalError.unsupported(
                operation:
                    "schedules: the database has no table of schedules (run the migration "
                    + "\"behaviorkit-command-journal-schedules\" of SQLiteCommandJournal.registerMigrations(in:))")
        }
    }

    /// Adds or replaces the schedule `name` with `definition`, saved at `now`; returns its revision.
    static func saveSchedule(_ name: String, definition: [UInt8], now: Int64, _ db: Database) throws -> Int64 {
        try checkSchedules(db)
        try db.cachedStatement(
            sql: """
                INSERT INTO commandSchedule (name, definition, revision, savedAt, lastTick) VALUES (?, ?, 1, ?, NULL)
                ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, revision = revision + 1,
                    savedAt = excluded.savedAt, lastTick = NULL
                """
        ).execute(arguments: [name, Data(definition), now])
        return try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT revision FROM commandSchedule WHERE name = ?"), arguments: [name]) ?? 1
    }

    /// Removes the schedule `name`; whether there was one.
    static func removeSchedule(_ name: String, _ db: Database) throws -> Bool {
        try checkSchedules(db)
        try db.cachedStatement(sql: "DELETE FROM commandSchedule WHERE name = ?").execute(arguments: [name])
        return db.changesCount > 0
    }

    /// Moves the last tick of `name` to `tick` when it stands at `revision` and `lastTick`.
    static func advanceSchedule(
        _ name: String, revision: Int64, from lastTick: Int64?, to tick: Int64, _ db: Database
    ) throws -> Bool {
        try checkSchedules(db)
        try db.cachedStatement(
            sql: "UPDATE commandSchedule SET lastTick = ? WHERE name = ? AND revision = ? AND lastTick IS ?"
        ).execute(arguments: [tick, name, revision, lastTick])
        return db.changesCount > 0
    }

    /// The schedules, by name; none in a database without the table.
    static func schedules(_ db: Database) throws -> [CommandJournalSchedule] {
        guard try db.tableExists(schedulesTable) else { return [] }
        return try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT name, definition, revision, savedAt, lastTick FROM commandSchedule ORDER BY name")
        ).map { row in
            let definition: Data = row["definition"]
            let lastTick: Int64? = row["lastTick"]
            return CommandJournalSchedule(
                schedule: try CommandJournalSchedule.decode(Array(definition)), revision: row["revision"],
                savedAt: Date(journalMilliseconds: row["savedAt"]),
                lastTick: lastTick.map(Date.init(journalMilliseconds:)))
        }
    }
}
