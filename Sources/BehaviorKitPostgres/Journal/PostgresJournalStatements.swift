import Commands

/// The prepared statements of one journal's table.
struct PostgresJournalStatements: Sendable {
    typealias Text = PreparedJournalStatement.Text

    let batch, recordByKey, unfinished, children, all: Text
    /// The batch, its rows led by the transaction's identity
    /// (``PostgresJournalConnections/identityColumns``): one round trip where asking for it after
    /// would take two.
    let identifiedBatch: Text
    /// The columns of the identity that lead ``identifiedBatch``'s rows.
    static let identityColumnCount = 3

    init(_ sql: PostgresJournalSQL) {
        batch = Text(sql.batch)
        identifiedBatch = Text(PostgresJournalConnections.identified(sql.batch))
        recordByKey = Text(sql.select("WHERE key = $1::text"))
        unfinished = Text(sql.select("WHERE status = 'pending' ORDER BY sequence"))
        children = Text(sql.select("WHERE parent_key = $1::text ORDER BY sequence"))
        all = Text(sql.select("ORDER BY sequence"))
    }
}

extension Int64 {
    /// Milliseconds kept within ±2⁶², so that the server's `now + duration` never overflows.
    var clampedForJournal: Int64 { Swift.min(Swift.max(self, -(1 << 62)), 1 << 62) }
}
