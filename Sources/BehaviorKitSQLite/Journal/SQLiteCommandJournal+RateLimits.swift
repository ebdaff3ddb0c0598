public import Commands
import GRDB

/// The rate limits of a SQLite journal, in its tables `commandQueueRateLimit` and `commandQueueRateBucket`.
extension SQLiteCommandJournal {
    /// Sets or removes `queue`'s limit of `scope`; see `CommandJournalManagement.setRateLimit(_:queue:scope:)`.
    public func setRateLimit(_ limit: QueueRateLimit?, queue: String, scope: QueueRateLimitScope) async throws {
        try StoredKey.check(queue, "queue name")
        do {
            try await database.write { db in
                try CommandJournalSchema.setRateLimit(limit, queue: queue, scope: scope, db)
            }
        } catch let error as DatabaseError {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
        channel.queueSignal.signal(queue)
    }

    /// The rate limits; see `CommandJournalManagement.rateLimits()`.
    public func rateLimits() async throws -> [CommandJournalRateLimit] {
        try await read { db in try CommandJournalSchema.rateLimits(db) }
    }
}
