import Commands
import Foundation
import GRDB

/// The management API's tables and statements: the log of attempts that ended with an error,
/// the index that lists records by status, and the actions (cancel, retry, a release that logs
/// its failure), each inside the batch's write transaction.
extension CommandJournalSchema {
    /// The attempts that ended with an error or were cancelled, one row per key and attempt;
    /// and the indexes that list records by status, or by queue, in sequence order.
    static let createManagement = """
        CREATE TABLE IF NOT EXISTS commandAttempt (
            key TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            owner TEXT,
            error TEXT,
            endedAt INTEGER NOT NULL,
            PRIMARY KEY (key, attempt)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS commandRecordStatus ON commandRecord(status, sequence);
        CREATE INDEX IF NOT EXISTS commandRecordQueue ON commandRecord(queue, sequence) WHERE queue IS NOT NULL;
        """

    /// Creates the management tables and index when missing.
    static func createManagementTables(_ db: Database) throws {
        try db.execute(sql: createManagement)
        try db.execute(sql: createTraces)
    }

    /// Writes `attempt` of `key` down, replacing what was logged for its number. In an
    /// application's database whose migrator has not added the log yet, the attempt is not kept
    /// (the action still happens).
    static func log(_ attempt: CommandJournalAttempt, of key: String, _ db: Database, replacing: Bool = true) throws {
        guard try db.tableExists("commandAttempt") else { return }
        try db.cachedStatement(
            sql: replacing
                ? "INSERT OR REPLACE INTO commandAttempt (key, attempt, owner, error, endedAt) VALUES (?, ?, ?, ?, ?)"
                : "INSERT OR IGNORE INTO commandAttempt (key, attempt, owner, error, endedAt) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [
            key, attempt.number, attempt.owner, attempt.error, attempt.endedAt?.journalMilliseconds ?? 0,
        ])
    }

    /// The attempts logged for `key`, in order.
    static func loggedAttempts(_ key: String, _ db: Database) throws -> [CommandJournalAttempt] {
        guard try db.tableExists("commandAttempt") else { return [] }
        return try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT attempt, owner, error, endedAt FROM commandAttempt WHERE key = ? ORDER BY attempt"),
            arguments: [key]
        ).map { row in
            CommandJournalAttempt(
                number: row["attempt"], owner: row["owner"], error: row["error"],
                endedAt: Date(journalMilliseconds: row["endedAt"]))
        }
    }

    /// Releases `key` as ``release(_:_:after:now:_:)`` does, and logs the attempt's `failure`.
    static func release(
        _ key: String, _ lease: JournalLease, after delay: Duration, failure: String, now: Int64, _ db: Database,
        path: String
    ) throws {
        guard let record = try fetch(key, db, path: path), record.status == .pending, record.entry.parentKey == nil,
            lease.holds(owner: record.owner, attempts: record.attempts)
        else { return }
        try release(key, lease, after: delay, now: now, db)
        try log(
            CommandJournalAttempt(
                number: record.attempts, owner: record.owner, error: failure, endedAt: Date(journalMilliseconds: now)),
            of: key, db)
    }

    /// Cancels `key`: the writes of
    /// ``CommandJournalCancellation/writes(_:hasChildren:isMarked:compensates:reason:now:)`` made.
    static func cancel(
        _ key: String, reason: String, now: Int64, _ db: Database, path: String
    ) throws -> CommandJournalRecord {
        guard let record = try fetch(key, db, path: path) else { throw CommandJournalError.unknownKey(key) }
        let hasChildren =
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM commandRecord WHERE parentKey = ?)"),
                arguments: [key]) ?? false
        let markKey = CommandJournalCancellation.key(of: key)
        let writes = try CommandJournalCancellation.writes(
            record, hasChildren: hasChildren, isMarked: try fetch(markKey, db, path: path) != nil,
            compensates: try fetch(CommandJournalCancellation.compensationsKey(of: key), db, path: path) != nil,
            reason: CommandJournalCancellation.reason(reason), now: Date(journalMilliseconds: now))
        for write in writes {
            switch write {
            case .logAttempt(let attempt):
                try log(attempt, of: key, db)
            case .settleFailed(let text):
                try db.cachedStatement(
                    sql: """
                        UPDATE commandRecord SET status = 'failed', failureReason = ?, owner = NULL,
                            leaseExpiresAt = NULL, updatedAt = ?
                        WHERE key = ?
                        """
                ).execute(arguments: [text, now, key])
            case .takeFromWorker:
                try db.cachedStatement(
                    sql: """
                        UPDATE commandRecord SET attempts = attempts + (CASE WHEN owner IS NULL THEN 0 ELSE 1 END),
                            owner = NULL, leaseExpiresAt = ?, updatedAt = ?
                        WHERE key = ?
                        """
                ).execute(arguments: [now, now, key])
            case .mark(let text):
                _ = try insert(
                    CommandJournalCancellation.entry(of: key), owner: nil, until: nil, queue: nil, now: now, db)
                try db.cachedStatement(
                    sql: "UPDATE commandRecord SET status = 'failed', failureReason = ? WHERE key = ?"
                ).execute(arguments: [text, markKey])
            }
        }
        return try fetch(key, db, path: path) ?? record
    }

    /// Retries `key`: pending again, due now, its children deleted, the attempt that ended logged.
    static func retry(_ key: String, now: Int64, _ db: Database, path: String) throws -> CommandJournalRecord {
        guard let record = try fetch(key, db, path: path) else { throw CommandJournalError.unknownKey(key) }
        if let ended = try CommandJournalAttempt.endedBeforeRetry(record) {
            try log(ended, of: key, db, replacing: false)
        }
        try db.cachedStatement(
            sql: """
                UPDATE commandRecord SET status = 'pending', failureReason = NULL, owner = NULL, leaseExpiresAt = ?,
                    updatedAt = ?
                WHERE key = ?
                """
        ).execute(arguments: [now, now, key])
        if try db.tableExists("commandAttempt") {
            try db.cachedStatement(
                sql: "DELETE FROM commandAttempt WHERE key IN (SELECT key FROM commandRecord WHERE parentKey = ?)"
            ).execute(arguments: [key])
        }
        try db.cachedStatement(sql: "DELETE FROM commandRecord WHERE parentKey = ?").execute(arguments: [key])
        return try fetch(key, db, path: path) ?? record
    }

    /// The query of a page of the records passing `filter` after `cursor`, at most `limit` of
    /// them: by sequence, through the index on status, queue or key when the filter names one.
    ///
    /// With `byKey`, the key prefix's range is read on the key index and its matches sorted
    /// (`ORDER BY +sequence`): right for a prefix that few keys have (``isNarrow(_:_:)``); else the
    /// records are read in sequence order, which finds a page of a common prefix at once.
    static func listing(
        _ filter: CommandJournalFilter, after cursor: Int64?, limit: Int, byKey: Bool = false
    ) -> (sql: String, arguments: StatementArguments) {
        var conditions = ["sequence > ?"]
        var arguments: StatementArguments = [cursor ?? 0]
        func add(_ condition: String, _ values: [(any DatabaseValueConvertible)?]) {
            conditions.append(condition)
            _ = arguments.append(contentsOf: StatementArguments(values))
        }
        if !filter.statuses.isEmpty {
            let statuses = filter.statuses.map(\.rawValue).sorted()
            add("status IN (\(statuses.map { _ in "?" }.joined(separator: ", ")))", statuses)
        }
        if let queue = filter.queue { add("queue = ?", [queue]) }
        if let kind = filter.kind { add("kind = ?", [kind]) }
        if let prefix = filter.keyPrefix {
            // The range reads the key index (byte order); the substring is the exact test.
            add(
                "key >= ? AND key < ? AND substr(key, 1, ?) = ?",
                [prefix, prefix + "\u{10FFFF}", prefix.unicodeScalars.count, prefix])
        }
        if let owner = filter.owner { add("owner = ?", [owner]) }
        if let since = filter.updatedSince { add("updatedAt >= ?", [since.journalMilliseconds]) }
        if let before = filter.updatedBefore { add("updatedAt < ?", [before.journalMilliseconds]) }
        if filter.rootsOnly { conditions.append("parentKey IS NULL") }
        if let cancelled = filter.cancelled {
            let cancellation = "(failureReason = 'cancelled' OR substr(failureReason, 1, 11) = 'cancelled: ')"
            conditions.append(cancelled ? cancellation : "(failureReason IS NULL OR NOT \(cancellation))")
        }
        _ = arguments.append(contentsOf: [limit])
        let sql = """
            SELECT \(selectColumns) FROM commandRecord
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(byKey ? "+sequence" : "sequence") LIMIT ?
            """
        return (sql, arguments)
    }

    /// How many keys a prefix may have to be read on the key index and sorted.
    static let narrowPrefix = 10_000

    /// Whether at most ``narrowPrefix`` keys start with `prefix`: counted on the key index, and
    /// no further than that.
    static func isNarrow(_ prefix: String, _ db: Database) throws -> Bool {
        let count = try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT count(*) FROM (
                        SELECT 1 FROM commandRecord WHERE key >= ? AND key < ? AND substr(key, 1, ?) = ? LIMIT ?
                    )
                    """),
            arguments: [prefix, prefix + "\u{10FFFF}", prefix.unicodeScalars.count, prefix, narrowPrefix + 1])
        return (count ?? 0) <= narrowPrefix
    }

    /// Each queue's depth at `?1`, from the pending roots only.
    static let queues = """
        SELECT queue,
            sum(owner IS NULL AND leaseExpiresAt <= ?1) AS due,
            sum(owner IS NULL AND leaseExpiresAt > ?1) AS delayed,
            sum(owner IS NOT NULL AND leaseExpiresAt > ?1) AS running,
            sum(owner IS NOT NULL AND leaseExpiresAt <= ?1) AS stalled,
            min(CASE WHEN owner IS NULL THEN leaseExpiresAt END) AS oldestDue
        FROM commandRecord
        WHERE status = 'pending' AND parentKey IS NULL
        GROUP BY queue ORDER BY queue
        """

    /// The pending roots workers hold, in sequence order.
    static let held = """
        SELECT \(selectColumns) FROM commandRecord
        WHERE status = 'pending' AND parentKey IS NULL AND owner IS NOT NULL ORDER BY sequence
        """
}
