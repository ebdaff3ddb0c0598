/// One write of a journal, as its store applies it: the in-memory journal at once, the SQLite
/// and PostgreSQL journals in the batches of their group commit. Every store speaks these
/// writes and answers each with a ``JournalWriteOutcome``; ``JournalWriteChannel`` turns them
/// into the typed calls of ``CommandJournal``.
package enum JournalWrite: Sendable {
    /// ``CommandJournal/begin(_:lease:)``.
    case begin(CommandJournalEntry, JournalLease)
    /// ``CommandJournal/begin(_:queue:lease:)``.
    case beginOnQueue(CommandJournalEntry, queue: String, JournalLease)
    /// ``CommandJournal/append(_:lease:)``.
    case append(CommandJournalEntry, JournalLease)
    /// ``CommandJournal/settle(_:as:lease:)``.
    case settle(String, CommandJournalSettlement, JournalLease)
    /// ``CommandJournal/settle(_:lease:)``: all the changes or none.
    case changes([CommandJournalChange], JournalLease)
    /// ``CommandJournal/renew(_:lease:)``.
    case renew([String: Int], JournalLease)
    /// ``CommandJournal/release(_:lease:after:)``.
    case release(String, JournalLease, after: Duration)
    /// ``CommandJournal/claim(_:from:concurrency:perPartition:takingOverFrom:lease:)``.
    case claim(Int, queue: String?, concurrency: Int?, perPartition: Int?, deadOwner: String?, JournalLease)
    /// ``CommandJournal/enqueue(_:queue:after:priority:partition:traceContext:)``.
    case enqueue(
        CommandJournalEntry, queue: String, after: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?)
    /// ``CommandJournalManagement/prune(settledBefore:statuses:queue:limit:)``, the date in milliseconds
    /// since 1970.
    case prune(settledBefore: Int64, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?)
    /// ``CommandJournal/release(_:lease:after:failure:)``.
    case releaseFailed(String, JournalLease, after: Duration, failure: String)
    /// ``CommandJournalManagement/cancel(_:reason:)``.
    case cancel(String, reason: String)
    /// ``CommandJournalManagement/retry(_:)``.
    case retry(String)
    /// ``CommandJournal/logAttempt(_:of:parentKey:lease:)``.
    case logAttempt(CommandJournalAttempt, key: String, parentKey: String?, JournalLease)
    /// ``CommandJournalManagement/pause(queue:)`` (`paused`) or ``CommandJournalManagement/resume(queue:)``.
    case pause(queue: String, paused: Bool)
    /// ``CommandJournal/wake(_:)``.
    case wake(String)
}
