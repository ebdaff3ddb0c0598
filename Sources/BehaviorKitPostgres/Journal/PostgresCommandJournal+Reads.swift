public import Commands
import PostgresNIO

extension PostgresCommandJournal {
    /// The record with `key`, or `nil`.
    public func record(forKey key: String) async throws -> CommandJournalRecord? {
        guard StoredKey.isStorable(key) else { return nil }
        return try await fetch(writer.statements.recordByKey, key).first
    }

    /// The pending records, in sequence order.
    public func unfinished() async throws -> [CommandJournalRecord] {
        try await fetch(writer.statements.unfinished, nil)
    }

    /// The records of `parentKey`, in sequence order.
    public func records(parentKey: String) async throws -> [CommandJournalRecord] {
        guard StoredKey.isStorable(parentKey) else { return [] }
        return try await fetch(writer.statements.children, parentKey)
    }

    /// Every record, in sequence order.
    public func allRecords() async throws -> [CommandJournalRecord] {
        try await fetch(writer.statements.all, nil)
    }

    private func fetch(
        _ statement: PreparedJournalStatement.Text, _ key: String?
    ) async throws
        -> [CommandJournalRecord]
    {
        let names = writer.names
        let logger = connections.logger
        return try await connections.withConnection { connection in
            var bindings = PostgresBindings(capacity: 1)
            if let key { bindings.append(key) }
            return try await connection.run(statement, bindings, logger: logger).compactMap { row in
                try PostgresJournalRow(row, names).record(at: 0)
            }
        }
    }
}
