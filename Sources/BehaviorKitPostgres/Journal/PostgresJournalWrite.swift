import Commands

/// One write of the journal, as the group commit batches them.
enum PostgresJournalWrite: Sendable {
    case begin(CommandJournalEntry, JournalLease)
    case append(CommandJournalEntry, JournalLease)
    case settle(String, CommandJournalSettlement, JournalLease)
    case changes([CommandJournalChange], JournalLease)
    case renew([String: Int], JournalLease)
    case release(String, JournalLease, Duration)
    case claim(Int, queue: String?, concurrency: Int?, deadOwner: String?, JournalLease)
    case enqueue(CommandJournalEntry, String, Duration)
    case prune(Int64)
}

/// What one write gave back.
enum PostgresJournalWriteResult: Sendable {
    case begun(CommandJournalBegin)
    case record(CommandJournalRecord)
    case keys([String])
    case claimed(CommandJournalClaim)
    case count(Int)
    case none
}

/// The prepared statements of one journal's table.
struct PostgresJournalStatements: Sendable {
    typealias Text = PreparedJournalStatement.Text

    let batch, recordByKey, unfinished, children, all: Text

    init(_ sql: PostgresJournalSQL) {
        batch = Text(sql.batch)
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
