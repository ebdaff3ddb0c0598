public import Commands
import GRDB

extension SQLiteCommandJournal {
    /// The record with `key`, or `nil`.
    public func record(forKey key: String) async throws -> CommandJournalRecord? {
        guard StoredKey.isStorable(key) else { return nil }
        return try await fetch("WHERE key = ?", [key]).first
    }

    /// The pending records, in sequence order.
    public func unfinished() async throws -> [CommandJournalRecord] {
        try await fetch("WHERE status = 'pending' ORDER BY sequence", [])
    }

    /// The records of `parentKey`, in sequence order.
    public func records(parentKey: String) async throws -> [CommandJournalRecord] {
        guard StoredKey.isStorable(parentKey) else { return [] }
        return try await fetch("WHERE parentKey = ? ORDER BY sequence", [parentKey])
    }

    /// Every record, in sequence order.
    public func allRecords() async throws -> [CommandJournalRecord] {
        try await fetch("ORDER BY sequence", [])
    }

    /// Reads the records `clause` selects, with a statement from the connection's cache:
    /// prepared once per reading connection, not once per read.
    private func fetch(_ clause: String, _ arguments: StatementArguments) async throws -> [CommandJournalRecord] {
        let path = self.path
        do {
            return try await database.read { db in
                let sql = "SELECT \(CommandJournalSchema.selectColumns) FROM commandRecord \(clause)"
                return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                    try CommandJournalSchema.record(row, path: path)
                }
            }
        } catch {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
    }
}
