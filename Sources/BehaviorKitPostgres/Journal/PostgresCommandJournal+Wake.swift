import Commands
import PostgresNIO

extension PostgresCommandJournal {
    /// Makes `key` due now when it waits on a queue, held by no worker; the table's trigger
    /// wakes the queue's workers in every process, and this process's at once; see
    /// `CommandJournal.wake(_:)`.
    public func wake(_ key: String) async throws -> Bool {
        try StoredKey.check(key, "idempotency key")
        try writer.validate(.wake(key))
        let woken = try await action { connection, sql, now in
            guard try await !self.rows(sql.wake, [key, now], connection).isEmpty else { return nil }
            return try await self.locked(key, connection)
        }
        guard let woken else { return false }
        if let queue = woken.queue { channel.queueSignal.signal(queue) }
        return true
    }
}
