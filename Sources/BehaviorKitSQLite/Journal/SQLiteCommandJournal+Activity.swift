public import Commands
import GRDB

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension SQLiteCommandJournal {
    /// What each queue did per minute since `since`, in one read; see
    /// `CommandJournalManagement.activity(since:)`.
    public func activity(since: Date) async throws -> [QueueActivity] {
        let since = since.journalMilliseconds
        return try await read { db in
            var rows = try Row.fetchAll(
                db.cachedStatement(sql: CommandJournalSchema.settledPerMinute(db)), arguments: [since])
            if try db.tableExists("commandAttempt") {
                rows += try Row.fetchAll(
                    db.cachedStatement(sql: CommandJournalSchema.retriedPerMinute), arguments: [since])
            }
            return QueueActivity.gathered(
                rows.map { row in
                    QueueActivity(
                        queue: row["queue"], minute: Date(journalMilliseconds: row["minute"]), done: row["done"],
                        failed: row["failed"], retried: row["retried"], pickups: row[5],
                        pickupMilliseconds: row[6] ?? 0, longestPickupMilliseconds: row[7] ?? 0)
                })
        }
    }
}

extension CommandJournalSchema {
    /// The attempts of each queue's records (or of their roots') that ended with an error per
    /// minute since `?`.
    static let retriedPerMinute = """
        SELECT COALESCE(r.queue, p.queue) AS queue, a.endedAt / 60000 * 60000 AS minute, 0 AS done, 0 AS failed,
            COUNT(*) AS retried, 0 AS pickups, 0 AS pickupMilliseconds, 0 AS longestPickupMilliseconds
        FROM commandAttempt a JOIN commandRecord r ON r.key = a.key
            LEFT JOIN commandRecord p ON p.key = r.parentKey
        WHERE a.error IS NOT NULL AND a.endedAt >= ? AND COALESCE(r.queue, p.queue) IS NOT NULL
        GROUP BY 1, 2
        """
}
