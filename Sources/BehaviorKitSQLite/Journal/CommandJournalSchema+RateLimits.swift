import Commands
import GRDB

/// The rate limits (``CommandJournalManagement/setRateLimit(_:queue:scope:)``): one row per
/// queue and scope in `commandQueueRateLimit`, and each bucket's credit in
/// `commandQueueRateBucket` (the queue's under the partition `''`), both added by the migration
/// "behaviorkit-command-journal-rate-limits". A claim reads and debits them in its own write
/// transaction, which no other claim shares, on the journal's clock (`QueueRateGate`).
extension CommandJournalSchema {
    static let rateLimitsTable = "commandQueueRateLimit"

    static let createRateLimits = """
        CREATE TABLE IF NOT EXISTS commandQueueRateLimit (
            queue TEXT NOT NULL,
            scope TEXT NOT NULL,
            starts INTEGER NOT NULL,
            intervalMilliseconds INTEGER NOT NULL,
            burst INTEGER NOT NULL,
            PRIMARY KEY (queue, scope)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS commandQueueRateBucket (
            queue TEXT NOT NULL,
            scope TEXT NOT NULL,
            partitionKey TEXT NOT NULL,
            credit INTEGER NOT NULL,
            writtenAt INTEGER NOT NULL,
            PRIMARY KEY (queue, scope, partitionKey)
        ) WITHOUT ROWID;
        """

    /// Sets (or, `nil`, removes) the limit of `queue` and `scope`; a change empties its buckets
    /// (full again); the same limit changes nothing.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` in an application's database
    ///   whose migrator has not added the tables.
    static func setRateLimit(_ limit: QueueRateLimit?, queue: String, scope: QueueRateLimitScope, _ db: Database) throws
    {
        guard try db.tableExists(rateLimitsTable) else {
            throw CommandJournalError.unsupported(
                operation:
                    "setting a rate limit: the database has no table of rate limits (run the migration "
                    + "\"behaviorkit-command-journal-rate-limits\" of SQLiteCommandJournal.registerMigrations(in:))")
        }
        guard try rateLimit(queue, scope, db) != limit else { return }
        if let limit {
            try db.cachedStatement(
                sql: """
                    INSERT INTO commandQueueRateLimit (queue, scope, starts, intervalMilliseconds, burst)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (queue, scope) DO UPDATE SET starts = excluded.starts,
                        intervalMilliseconds = excluded.intervalMilliseconds, burst = excluded.burst
                    """
            ).execute(arguments: [queue, scope.rawValue, limit.starts, limit.intervalMilliseconds, limit.burst])
        } else {
            try db.cachedStatement(sql: "DELETE FROM commandQueueRateLimit WHERE queue = ? AND scope = ?")
                .execute(arguments: [queue, scope.rawValue])
        }
        try db.cachedStatement(sql: "DELETE FROM commandQueueRateBucket WHERE queue = ? AND scope = ?")
            .execute(arguments: [queue, scope.rawValue])
    }

    /// The limits kept, by queue, then scope; none in a database without the table.
    static func rateLimits(_ db: Database) throws -> [CommandJournalRateLimit] {
        guard try db.tableExists(rateLimitsTable) else { return [] }
        return try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT queue, scope, starts, intervalMilliseconds, burst FROM commandQueueRateLimit ORDER BY queue, scope"
            )
        ).compactMap { row in
            guard let scope = QueueRateLimitScope(rawValue: row["scope"]), let limit = rateLimit(row) else {
                return nil
            }
            return CommandJournalRateLimit(queue: row["queue"], scope: scope, limit: limit)
        }
    }

    /// The limit a row holds, or `nil` when its values are no limit (written by hand).
    private static func rateLimit(_ row: Row) -> QueueRateLimit? {
        try? QueueRateLimit(
            starts: row["starts"], per: .milliseconds(row["intervalMilliseconds"] as Int64), burst: row["burst"])
    }

    /// The limit of `queue` and `scope`, or `nil`.
    static func rateLimit(_ queue: String, _ scope: QueueRateLimitScope, _ db: Database) throws -> QueueRateLimit? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT starts, intervalMilliseconds, burst FROM commandQueueRateLimit WHERE queue = ? AND scope = ?
                    """),
            arguments: [queue, scope.rawValue]
        ).flatMap(rateLimit)
    }

    /// The gate of a claim from `queue` at `now`, or `nil` when the queue has no limit.
    static func rateGate(_ queue: String?, now: Int64, _ db: Database) throws -> QueueRateGate? {
        guard let queue, try db.tableExists(rateLimitsTable) else { return nil }
        let queueLimit = try rateLimit(queue, .queue, db)
        let partitionLimit = try rateLimit(queue, .partition, db)
        guard queueLimit != nil || partitionLimit != nil else { return nil }
        return QueueRateGate(
            queueLimit: queueLimit, partitionLimit: partitionLimit,
            queueBucket: try rateBucket(queue, .queue, "", db), now: now)
    }

    /// A bucket's credit and when it was written, or `nil` (full).
    static func rateBucket(
        _ queue: String, _ scope: QueueRateLimitScope, _ partition: String, _ db: Database
    ) throws -> (credit: Int64, at: Int64)? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT credit, writtenAt FROM commandQueueRateBucket
                    WHERE queue = ? AND scope = ? AND partitionKey = ?
                    """),
            arguments: [queue, scope.rawValue, partition]
        ).map { ($0["credit"], $0["writtenAt"]) }
    }

    /// Writes the buckets `gate` debited, at `now`.
    static func keep(_ gate: QueueRateGate, of queue: String?, now: Int64, _ db: Database) throws {
        guard let queue else { return }
        let write = try db.cachedStatement(
            sql: """
                INSERT INTO commandQueueRateBucket (queue, scope, partitionKey, credit, writtenAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (queue, scope, partitionKey) DO UPDATE SET credit = excluded.credit,
                    writtenAt = excluded.writtenAt
                """)
        if let credit = gate.queueCredit {
            try write.execute(arguments: [queue, QueueRateLimitScope.queue.rawValue, "", credit, now])
        }
        for (partition, credit) in gate.partitionCreditsToWrite {
            try write.execute(arguments: [queue, QueueRateLimitScope.partition.rawValue, partition, credit, now])
        }
    }

    /// Whether `queue` has a due record no worker holds (after a claim: one it left behind).
    static func hasDueRecord(_ queue: String?, now: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM commandRecord
                    WHERE status = 'pending' AND parentKey IS NULL AND queue IS ? AND leaseExpiresAt <= ?)
                    """),
            arguments: [queue, now]) ?? false
    }
}
