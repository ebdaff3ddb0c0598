import Commands
import GRDB

/// A queued record's partition (a customer, a tenant: ``CommandQueue/concurrencyPerPartition``):
/// a column added to the table of layout 2 by a migration of its own (`NULL`, no partition, for
/// the records written before it), and the index a claim counts a partition's running records on.
/// A claim under a limit per partition walks the due records in its order and skips those whose
/// partition is full; it runs in the write transaction, which no other claim shares, so that two
/// claims never both see a partition one short of its limit.
extension CommandJournalSchema {
    /// The index of a queue's open records by partition.
    static let createPartitionIndex = """
        CREATE INDEX IF NOT EXISTS commandRecordPartition ON commandRecord(queue, partitionKey)
            WHERE status = 'pending' AND parentKey IS NULL AND partitionKey IS NOT NULL
        """

    /// Adds the `partitionKey` column and its index, unless the table has them.
    static func addPartitions(_ db: Database) throws {
        if try !columns(db).contains("partitionKey") {
            try db.execute(sql: "ALTER TABLE commandRecord ADD COLUMN partitionKey TEXT")
        }
        try db.execute(sql: createPartitionIndex)
    }

    /// Puts the new record `key` in `partition`.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` in an application's database
    ///   whose migrator has not added the column.
    static func keepPartition(_ partition: String?, of key: String, _ db: Database) throws {
        guard let partition else { return }
        try checkPartitions("enqueue in a partition", db)
        try db.cachedStatement(sql: "UPDATE commandRecord SET partitionKey = ? WHERE key = ?")
            .execute(arguments: [partition, key])
    }

    /// Throws ``CommandJournalError/unsupported(operation:)`` for `operation` in an application's
    /// database whose migrator has not added the column: a limit is refused rather than exceeded.
    static func checkPartitions(_ operation: String, _ db: Database) throws {
        guard try !columns(db).contains("partitionKey") else { return }
        throw CommandJournalError.unsupported(
            operation:
                "\(operation): the table has no partitions (run the migration "
                + "\"behaviorkit-command-journal-partitions\" of SQLiteCommandJournal.registerMigrations(in:))")
    }

    /// The keys of up to `room` due records of `queue` (with the owner each is taken from), the
    /// highest priority first, then the oldest, skipping those whose partition already runs
    /// `perPartition` records (a record taken over from `deadOwner` gives its place back), or
    /// whose partition's rate limit bucket `gate` finds empty (debiting it for those picked).
    static func partitionedCandidates(
        _ room: Int, from queue: String?, perPartition: Int?, gate: inout QueueRateGate?, deadOwner: String?,
        now: Int64, _ db: Database
    ) throws -> [(key: String, owner: String?)] {
        guard room > 0 else { return [] }
        try checkPartitions("claim under a limit per partition", db)
        let count = try db.cachedStatement(
            sql: """
                SELECT count(*) FROM commandRecord
                WHERE status = 'pending' AND parentKey IS NULL AND queue IS ? AND partitionKey = ?
                    AND owner IS NOT NULL AND leaseExpiresAt > ?
                """)
        var running: [String: Int] = [:]
        var picked: [(key: String, owner: String?)] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT key, owner, partitionKey, leaseExpiresAt FROM commandRecord
                    WHERE status = 'pending' AND parentKey IS NULL AND queue IS ?
                        AND (leaseExpiresAt <= ? OR (owner = ? AND leaseExpiresAt IS NOT NULL))
                    ORDER BY priority DESC, sequence
                    """),
            arguments: [queue, now, deadOwner])
        while picked.count < room, let row = try rows.next() {
            guard let key: String = row["key"] else { continue }
            let owner: String? = row["owner"]
            let partition: String? = row["partitionKey"]
            var givesBack = 0
            if let perPartition, let partition {
                if running[partition] == nil {
                    running[partition] = try Int.fetchOne(count, arguments: [queue, partition, now]) ?? 0
                }
                let expiry: Int64? = row["leaseExpiresAt"]
                givesBack = owner != nil && (expiry ?? now) > now ? 1 : 0
                guard (running[partition] ?? 0) - givesBack < perPartition else { continue }
            }
            if gate != nil {
                let admitted = try gate?.admits(partition: partition, now: now) { name in
                    try rateBucket(queue ?? "", .partition, name, db)
                }
                guard admitted == true else { continue }
                gate?.start(partition: partition)
            }
            if perPartition != nil, let partition { running[partition, default: 0] += 1 - givesBack }
            picked.append((key, owner))
        }
        return picked
    }
}
