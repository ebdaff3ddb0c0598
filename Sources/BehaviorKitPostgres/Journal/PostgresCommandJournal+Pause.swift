import Commands
import PostgresNIO

/// Paused queues on PostgreSQL: one row per paused queue in `<table>_paused`, which the batch
/// function's claims (v6) read before they take anything; a resume deletes the row and sends
/// the queue's notification (`NOTIFY "<table>_queue"`) in the same transaction, so that every
/// process's listening workers claim at once.
extension PostgresCommandJournal {
    /// Pauses `queue` for every process; see `CommandJournal.pause(queue:)`.
    public func pause(queue: String) async throws {
        try StoredKey.check(queue, "queue name")
        try writer.validate(.pause(queue: queue, paused: true))
        let sql =
            "INSERT INTO \"\(PostgresJournalManagementSQL.pausedTable(table))\" (queue, paused_at) "
            + "VALUES ($1::text, $2::bigint) ON CONFLICT (queue) DO NOTHING"
        _ = try await action { connection, _, now in
            try await self.execute(sql, [queue, now], connection)
            return nil
        }
    }

    /// Resumes `queue` and wakes its workers in every process; see `CommandJournal.resume(queue:)`.
    public func resume(queue: String) async throws {
        try StoredKey.check(queue, "queue name")
        try writer.validate(.pause(queue: queue, paused: false))
        // The payload as the table's trigger sends it: a name too long for one is '', which wakes every queue.
        let sql = """
            WITH resumed AS (
                DELETE FROM "\(PostgresJournalManagementSQL.pausedTable(table))" WHERE queue = $1::text RETURNING 1
            )
            SELECT pg_notify($2::text, CASE WHEN octet_length($1::text) < 7000 THEN $1::text ELSE '' END),
                (SELECT count(*) FROM resumed)
            """
        let channel = PostgresQueueNotifications.channel(table)
        _ = try await action { connection, _, _ in
            try await self.execute(sql, [queue, channel], connection)
            return nil
        }
        self.channel.queueSignal.signal(queue)
    }

    /// The queues paused now; see `CommandJournal.pausedQueues()`.
    public func pausedQueues() async throws -> Set<String> {
        let sql = "SELECT queue FROM \"\(PostgresJournalManagementSQL.pausedTable(table))\""
        return try await connections.withConnection { connection in
            Set(try await self.rows(sql, [], connection).map { try $0.decode(String.self) })
        }
    }
}
