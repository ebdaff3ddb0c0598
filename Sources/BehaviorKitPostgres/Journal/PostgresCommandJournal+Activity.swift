public import Commands
import PostgresNIO

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension PostgresCommandJournal {
    /// What each queue did per minute since `since`, in one query; see
    /// `CommandJournalManagement.activity(since:)`.
    public func activity(since: Date) async throws -> [QueueActivity] {
        let attempts = PostgresJournalManagementSQL.attemptsTable(table)
        let sql = """
            SELECT queue, updated_at / 60000 * 60000 AS minute, count(*) FILTER (WHERE status = 'done') AS done,
                count(*) FILTER (WHERE status <> 'done') AS failed, 0::bigint AS retried, count(pickup_ms),
                COALESCE(sum(pickup_ms), 0)::bigint, COALESCE(max(pickup_ms), 0)::bigint
            FROM "\(table)"
            WHERE parent_key IS NULL AND queue IS NOT NULL AND status <> 'pending' AND updated_at >= $1::bigint
            GROUP BY 1, 2
            UNION ALL
            SELECT COALESCE(r.queue, p.queue), a.ended_at / 60000 * 60000, 0::bigint, 0::bigint, count(*), 0::bigint,
                0::bigint, 0::bigint
            FROM "\(attempts)" a JOIN "\(table)" r ON r.key = a.key LEFT JOIN "\(table)" p ON p.key = r.parent_key
            WHERE a.error IS NOT NULL AND a.ended_at >= $1::bigint AND COALESCE(r.queue, p.queue) IS NOT NULL
            GROUP BY 1, 2
            """
        let since = since.journalMilliseconds
        return try await connections.withConnection { connection in
            QueueActivity.gathered(
                try await self.rows(sql, [since], connection).map { row in
                    let (queue, minute, done, failed, retried, pickups, pickupSum, longestPickup) = try row.decode(
                        (String, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self)
                    return QueueActivity(
                        queue: queue, minute: Date(journalMilliseconds: minute), done: Int(clamping: done),
                        failed: Int(clamping: failed), retried: Int(clamping: retried), pickups: Int(clamping: pickups),
                        pickupMilliseconds: pickupSum, longestPickupMilliseconds: longestPickup)
                })
        }
    }
}
