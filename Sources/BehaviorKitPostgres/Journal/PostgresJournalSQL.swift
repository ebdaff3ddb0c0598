/// The SQL of a ``PostgresCommandJournal``'s reads, and the call of its batch function
/// (``PostgresJournalBatchFunction``), which does every write.
struct PostgresJournalSQL: Sendable {
    /// The table's name, quoted.
    let table: String
    /// The call of the table's batch function: `$1` the time now or NULL, `$2` the writes.
    let batch: String

    init(table: String) {
        self.table = "\"\(table)\""
        self.batch = PostgresJournalBatchFunction.call(table)
    }

    static let columns = """
        sequence, key, kind, payload, parent_key, status, failure_reason, output, owner, lease_expires_at, queue, \
        attempts, created_at, updated_at
        """

    /// The records that `clause` selects, as the reads return them.
    func select(_ clause: String) -> String {
        "SELECT \(Self.columns) FROM \(table) \(clause)"
    }
}
