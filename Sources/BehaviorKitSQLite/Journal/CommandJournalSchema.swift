import Commands
import Foundation
import GRDB

/// The SQL of ``SQLiteCommandJournal``'s table, apart from its Swift API.
///
/// A journal file of its own is marked by SQLite's `application_id` ('BKJ2') and a random
/// journal identity in `user_version`, both in the file's header: opening compares them with
/// what the WAL would make of the file, so that a WAL from another database is never applied.
enum CommandJournalSchema {
    /// 'BKJ2': a command journal file, table layout 2.
    static let applicationID: Int32 = 0x424B_4A32

    /// One row per record; sequence numbers are never reused (AUTOINCREMENT). Times are
    /// milliseconds since 1970. A pending root's `leaseExpiresAt` is when its owner's lease ends
    /// (or, unowned on a queue, when it falls due).
    static let createTable = """
        CREATE TABLE commandRecord (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            key TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            payload BLOB NOT NULL,
            parentKey TEXT,
            status TEXT NOT NULL,
            failureReason TEXT,
            output BLOB,
            owner TEXT,
            leaseExpiresAt INTEGER,
            queue TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            createdAt INTEGER NOT NULL DEFAULT 0,
            updatedAt INTEGER NOT NULL DEFAULT 0
        );
        """

    static let createIndexes = """
        CREATE INDEX IF NOT EXISTS commandRecordPending ON commandRecord(sequence) WHERE status = 'pending';
        CREATE INDEX IF NOT EXISTS commandRecordParent ON commandRecord(parentKey, sequence) WHERE parentKey IS NOT NULL;
        CREATE INDEX IF NOT EXISTS commandRecordOpen ON commandRecord(queue, leaseExpiresAt)
            WHERE status = 'pending' AND parentKey IS NULL;
        """

    /// The columns of layout 1 (before owners and leases), and those layout 2 adds.
    static let layout1Columns: Set<String> = [
        "sequence", "key", "kind", "payload", "parentKey", "status", "failureReason",
    ]
    static let layout2Columns: Set<String> = layout1Columns.union([
        "output", "owner", "leaseExpiresAt", "queue", "attempts", "createdAt", "updatedAt",
    ])

    /// Creates the table in `db` (the application's own database, or a new journal file).
    static func create(_ db: Database) throws {
        try db.execute(sql: createTable)
        try db.execute(sql: createIndexes)
    }

    /// Brings a layout-1 table to layout 2: the new columns, and every pending root left by a
    /// crash claimable at once.
    static func upgradeFromLayout1(_ db: Database) throws {
        for column in [
            "output BLOB", "owner TEXT", "leaseExpiresAt INTEGER", "queue TEXT", "attempts INTEGER NOT NULL DEFAULT 0",
            "createdAt INTEGER NOT NULL DEFAULT 0", "updatedAt INTEGER NOT NULL DEFAULT 0",
        ] {
            try db.execute(sql: "ALTER TABLE commandRecord ADD COLUMN \(column)")
        }
        try db.execute(
            sql: "UPDATE commandRecord SET leaseExpiresAt = 0 WHERE status = 'pending' AND parentKey IS NULL")
        try db.execute(sql: createIndexes)
    }

    /// The columns of `commandRecord` in `db`, or none when there is no such table.
    static func columns(_ db: Database) throws -> Set<String> {
        Set(try Row.fetchAll(db, sql: "PRAGMA table_info(commandRecord)").map { $0["name"] as String })
    }

    static let selectColumns = """
        sequence, key, kind, payload, parentKey, status, failureReason, output, owner, leaseExpiresAt, queue, \
        attempts, createdAt, updatedAt, priority
        """

    /// ``selectColumns`` of a layout-2 table that has no `priority` yet (a file opened read-only
    /// before its migration): every record at the default priority.
    static let selectColumnsWithoutPriority = selectColumns.replacingOccurrences(
        of: ", priority", with: ", \(CommandQueue.defaultPriority) AS priority")

    /// The record in `row`, or a `.malformedRecord` error naming it.
    static func record(_ row: Row, path: String) throws(SQLiteStoreError) -> CommandJournalRecord {
        let sequence: Int64 = row["sequence"]
        let statusText: String = row["status"]
        guard let status = CommandJournalStatus(rawValue: statusText) else {
            throw SQLiteStoreError(
                code: .malformedRecord, path: path, reason: "record \(sequence) has the unknown status '\(statusText)'")
        }
        let entry = CommandJournalEntry(
            idempotencyKey: row["key"], kind: row["kind"], payload: Array(row["payload"] as Data? ?? Data()),
            parentKey: row["parentKey"])
        let lease: Int64? = row["leaseExpiresAt"]
        return CommandJournalRecord(
            sequence: sequence, entry: entry, status: status, failureReason: row["failureReason"],
            output: (row["output"] as Data?).map(Array.init), owner: row["owner"],
            leaseExpiresAt: lease.map(Date.init(journalMilliseconds:)), queue: row["queue"],
            attempts: row["attempts"], createdAt: Date(journalMilliseconds: row["createdAt"]),
            updatedAt: Date(journalMilliseconds: row["updatedAt"]), priority: priority(row))
    }

    /// The SQL of ``fetch(_:_:path:)``: one text, so that the connection's statement cache keeps it.
    static let selectByKey = "SELECT \(selectColumns) FROM commandRecord WHERE key = ?"

    /// The record with `key` in `db`, or `nil`; its statement comes from `db`'s statement cache.
    static func fetch(_ key: String, _ db: Database, path: String) throws -> CommandJournalRecord? {
        try Row.fetchOne(db.cachedStatement(sql: selectByKey), arguments: [key])
            .map { row throws(SQLiteStoreError) in try record(row, path: path) }
    }
}
