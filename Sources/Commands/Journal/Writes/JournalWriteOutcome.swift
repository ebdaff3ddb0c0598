/// What one ``JournalWrite`` gave back: the answer of the ``CommandJournal`` call it stands for.
/// A refusal (a conflict, a lost lease) is not an outcome but that write's error.
package enum JournalWriteOutcome: Sendable {
    /// The answer of ``JournalWrite/begin(_:_:)``.
    case begun(CommandJournalBegin)
    /// The record an append, an enqueue, a cancellation or a retry wrote or found.
    case record(CommandJournalRecord)
    /// The keys a renewal kept.
    case keys([String])
    /// What a claim took.
    case claimed(CommandJournalClaim)
    /// How many records a prune deleted.
    case count(Int)
    /// Nothing to answer: the write is done.
    case none
}
