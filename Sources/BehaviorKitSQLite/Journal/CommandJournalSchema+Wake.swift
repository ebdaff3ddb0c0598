import Commands
import GRDB

extension CommandJournalSchema {
    /// Makes the pending root `key` on a queue, held by no worker and due after `now`, due at
    /// `now`; answers it when it did (`CommandJournal.wake(_:)`).
    static func wake(_ key: String, now: Int64, _ db: Database, path: String) throws -> CommandJournalRecord? {
        try db.cachedStatement(
            sql: """
                UPDATE commandRecord SET leaseExpiresAt = ?, updatedAt = ?
                WHERE key = ? AND status = 'pending' AND parentKey IS NULL AND queue IS NOT NULL AND owner IS NULL
                    AND leaseExpiresAt > ?
                """
        ).execute(arguments: [now, now, key, now])
        guard db.changesCount == 1 else { return nil }
        return try fetch(key, db, path: path)
    }
}
