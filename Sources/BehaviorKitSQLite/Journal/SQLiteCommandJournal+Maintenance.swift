import BehaviorKitSync
import GRDB

extension SQLiteCommandJournal {
    /// How many write transactions (each one flush) carried how many writes, since the journal
    /// was opened: group commit at work when `transactions < writes`.
    public var writeCounts: (transactions: Int, writes: Int) {
        let counts = writes.counts
        return (counts.batches, counts.operations)
    }

    /// The `synchronous` setting the writer connection actually has (1 normal, 2 full, 3 extra):
    /// the durability in force, read back from SQLite.
    public func synchronousSetting() async throws(SQLiteStoreError) -> Int {
        try await perform { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 0 }
    }

    /// The journal mode in force ("wal").
    public func journalMode() async throws(SQLiteStoreError) -> String {
        try await perform { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// Copies the WAL into the main file and empties the WAL, so that the main file alone
    /// holds every record (for a backup, say).
    public func checkpoint() async throws(SQLiteStoreError) {
        try await perform { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// SQLite's full integrity check (every page, every index entry against its row): `["ok"]`, or the
    /// problems found.
    public func integrityCheck() async throws(SQLiteStoreError) -> [String] {
        try await perform { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    func perform<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(SQLiteStoreError) -> T {
        do {
            return try await database.writeWithoutTransaction(body)
        } catch {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
    }
}
