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

    /// The record's columns, in ``PostgresJournalColumn``'s order.
    static let columns = PostgresJournalColumn.list()

    /// The records that `clause` selects, as the reads return them.
    func select(_ clause: String) -> String {
        "SELECT \(Self.columns) FROM \(table) \(clause)"
    }
}
