import Commands
import Foundation
import GRDB

/// The SQL of ``SQLiteCommandJournal``, apart from its Swift API.
enum CommandJournalSchema {
    /// One row per record; sequence numbers are never reused (AUTOINCREMENT).
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("command-journal-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE commandRecord (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        key TEXT NOT NULL UNIQUE,
                        kind TEXT NOT NULL,
                        payload BLOB NOT NULL,
                        parentKey TEXT,
                        status TEXT NOT NULL,
                        failureReason TEXT
                    );
                    CREATE INDEX commandRecordPending ON commandRecord(sequence) WHERE status = 'pending';
                    CREATE INDEX commandRecordParent ON commandRecord(parentKey, sequence) WHERE parentKey IS NOT NULL;
                    """)
        }
        return migrator
    }

    static let columns = "sequence, key, kind, payload, parentKey, status, failureReason"

    /// The record in `row`, or a `.malformedRecord` error naming it.
    static func record(_ row: Row, path: String) throws(SQLiteCommandJournalError) -> CommandJournalRecord {
        let sequence: Int64 = row["sequence"]
        let statusText: String = row["status"]
        guard let status = CommandJournalStatus(rawValue: statusText) else {
            throw SQLiteCommandJournalError(
                code: .malformedRecord, path: path, reason: "record \(sequence) has the unknown status '\(statusText)'")
        }
        let entry = CommandJournalEntry(
            idempotencyKey: row["key"], kind: row["kind"], payload: Array(row["payload"] as Data? ?? Data()),
            parentKey: row["parentKey"])
        return CommandJournalRecord(
            sequence: sequence, entry: entry, status: status, failureReason: row["failureReason"])
    }

    /// Appends `entry`, or returns the record that has its key.
    static func append(_ entry: CommandJournalEntry, _ db: Database, path: String) throws -> CommandJournalRecord {
        try db.execute(
            sql: """
                INSERT INTO commandRecord (key, kind, payload, parentKey, status) VALUES (?, ?, ?, ?, 'pending')
                ON CONFLICT (key) DO NOTHING
                """,
            arguments: [entry.idempotencyKey, entry.kind, Data(entry.payload), entry.parentKey])
        if db.changesCount == 1 {
            return CommandJournalRecord(sequence: db.lastInsertedRowID, entry: entry, status: .pending)
        }
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT \(columns) FROM commandRecord WHERE key = ?", arguments: [entry.idempotencyKey])
        else { throw CommandJournalError.unknownKey(entry.idempotencyKey) }
        let existing = try record(row, path: path)
        guard existing.entry == entry else { throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey) }
        return existing
    }

    /// Sets the status of `key`.
    static func mark(_ key: String, _ status: CommandJournalStatus, reason: String?, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE commandRecord SET status = ?, failureReason = ? WHERE key = ?",
            arguments: [status.rawValue, reason, key])
        if db.changesCount == 0 { throw CommandJournalError.unknownKey(key) }
    }
}
