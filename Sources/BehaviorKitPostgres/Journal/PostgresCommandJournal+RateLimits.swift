public import Commands
import PostgresNIO

/// Rate limits on PostgreSQL: one row per queue and scope in `<table>_rate_limits`, which the
/// batch function's claims (v9) read, and their buckets in `<table>_rate_buckets`, which the
/// claims debit on the server's clock. A change is one transaction, which locks the limit's row,
/// writes it, empties its buckets (full again) and sends the queue's notification, so that
/// every process's sleeping workers claim under the new limit at once.
extension PostgresCommandJournal {
    /// Sets or removes `queue`'s limit of `scope` for every process; see
    /// `CommandJournalManagement.setRateLimit(_:queue:scope:)`.
    public func setRateLimit(_ limit: QueueRateLimit?, queue: String, scope: QueueRateLimitScope) async throws {
        try StoredKey.check(queue, "queue name")
        let limits = "\"\(PostgresJournalManagementSQL.rateLimitsTable(table))\""
        let buckets = "\"\(PostgresJournalManagementSQL.rateBucketsTable(table))\""
        let current =
            "SELECT starts, interval_ms, burst FROM \(limits) WHERE queue = $1::text AND scope = $2::text FOR UPDATE"
        let upsert = """
            INSERT INTO \(limits) (queue, scope, starts, interval_ms, burst) VALUES ($1::text, $2::text, $3::bigint, $4::bigint, $5::bigint)
            ON CONFLICT (queue, scope) DO UPDATE SET starts = excluded.starts, interval_ms = excluded.interval_ms,
                burst = excluded.burst
            """
        let remove = "DELETE FROM \(limits) WHERE queue = $1::text AND scope = $2::text"
        let empty = "DELETE FROM \(buckets) WHERE queue = $1::text AND scope = $2::text"
        // The payload as the table's trigger sends it: a name too long for one is '', which wakes every queue.
        let notify = "SELECT pg_notify($2::text, CASE WHEN octet_length($1::text) < 7000 THEN $1::text ELSE '' END)"
        let channel = PostgresQueueNotifications.channel(table)
        _ = try await action { connection, _, _ in
            let row = try await self.rows(current, [queue, scope.rawValue], connection).first
            let kept = try row.map { row in
                let (starts, interval, burst) = try row.decode((Int64, Int64, Int64).self)
                return try? QueueRateLimit(
                    starts: Int(clamping: starts), per: .milliseconds(interval), burst: Int(clamping: burst))
            }
            guard kept != limit else { return nil }
            if let limit {
                try await self.execute(
                    upsert,
                    [queue, scope.rawValue, Int64(limit.starts), limit.intervalMilliseconds, Int64(limit.burst)],
                    connection)
            } else {
                try await self.execute(remove, [queue, scope.rawValue], connection)
            }
            try await self.execute(empty, [queue, scope.rawValue], connection)
            try await self.execute(notify, [queue, channel], connection)
            return nil
        }
        self.channel.queueSignal.signal(queue)
    }

    /// The rate limits; see `CommandJournalManagement.rateLimits()`.
    public func rateLimits() async throws -> [CommandJournalRateLimit] {
        let sql = """
            SELECT queue, scope, starts, interval_ms, burst FROM "\(PostgresJournalManagementSQL.rateLimitsTable(table))"
            ORDER BY queue, scope
            """
        return try await connections.withConnection { connection in
            try await self.rows(sql, [], connection).compactMap { row in
                let (queue, scope, starts, interval, burst) = try row.decode((String, String, Int64, Int64, Int64).self)
                guard let scope = QueueRateLimitScope(rawValue: scope),
                    let limit = try? QueueRateLimit(
                        starts: Int(clamping: starts), per: .milliseconds(interval), burst: Int(clamping: burst))
                else { return nil }
                return CommandJournalRateLimit(queue: queue, scope: scope, limit: limit)
            }
        }
    }
}
