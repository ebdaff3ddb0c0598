public import Commands
import GRDB

extension SQLiteCommandJournal {
    /// Writes `entry` down as pending; returns once it is durable. See ``CommandJournal/append(_:)``.
    public func append(_ entry: CommandJournalEntry) async throws -> CommandJournalRecord {
        guard let record = try await writes.submit(.append(entry)) else {
            throw CommandJournalError.unknownKey(entry.idempotencyKey)
        }
        return record
    }

    /// Marks the record with `key` done, durably.
    public func markDone(_ key: String) async throws {
        _ = try await writes.submit(.mark(key, .done, reason: nil))
    }

    /// Marks the record with `key` failed, durably.
    public func markFailed(_ key: String, reason: String) async throws {
        _ = try await writes.submit(.mark(key, .failed, reason: reason))
    }

    /// Marks the record with `key` compensated, durably.
    public func markCompensated(_ key: String) async throws {
        _ = try await writes.submit(.mark(key, .compensated, reason: nil))
    }

    /// The record with `key`, or `nil`.
    public func record(forKey key: String) async throws -> CommandJournalRecord? {
        try await fetch("WHERE key = ?", [key]).first
    }

    /// The pending records, in sequence order.
    public func unfinished() async throws -> [CommandJournalRecord] {
        try await fetch("WHERE status = 'pending' ORDER BY sequence", [])
    }

    /// The records of `parentKey`, in sequence order.
    public func records(parentKey: String) async throws -> [CommandJournalRecord] {
        try await fetch("WHERE parentKey = ? ORDER BY sequence", [parentKey])
    }

    /// Every record, in sequence order.
    public func allRecords() async throws -> [CommandJournalRecord] {
        try await fetch("ORDER BY sequence", [])
    }

    /// How many write transactions (each one flush) carried how many appends and marks, since
    /// the journal was opened: group commit at work when `transactions < writes`.
    public var writeCounts: (transactions: Int, writes: Int) {
        let counts = writes.counts
        return (counts.batches, counts.operations)
    }

    /// The `synchronous` setting the writer connection actually has (1 normal, 2 full, 3 extra):
    /// the durability in force, read back from SQLite.
    public func synchronousSetting() async throws(SQLiteCommandJournalError) -> Int {
        try await perform { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 0 }
    }

    /// The journal mode in force ("wal").
    public func journalMode() async throws(SQLiteCommandJournalError) -> String {
        try await perform { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// Copies the WAL into the main file and empties the WAL, so that the main file alone
    /// holds every record (for a backup, say).
    public func checkpoint() async throws(SQLiteCommandJournalError) {
        try await perform { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// SQLite's full integrity check: `["ok"]`, or the problems found.
    public func integrityCheck() async throws(SQLiteCommandJournalError) -> [String] {
        try await perform { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    private func fetch(_ clause: String, _ arguments: StatementArguments) async throws -> [CommandJournalRecord] {
        let path = self.path
        return try await read { db in
            let sql = "SELECT \(CommandJournalSchema.columns) FROM commandRecord \(clause)"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                try CommandJournalSchema.record(row, path: path)
            }
        }
    }

    private func read<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(SQLiteCommandJournalError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw SQLiteCommandJournalError(path: path, error, opening: false)
        }
    }

    private func perform<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(SQLiteCommandJournalError) -> T {
        do {
            return try await database.writeWithoutTransaction(body)
        } catch {
            throw SQLiteCommandJournalError(path: path, error, opening: false)
        }
    }
}
