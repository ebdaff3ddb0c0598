import Commands

extension JournalWrite {
    /// Whether the batch function applies it; the operator's writes and the logs of attempts
    /// run in a transaction of their own (`PostgresCommandJournal+Management`).
    var isBatched: Bool {
        switch self {
        case .begin, .beginOnQueue, .append, .settle, .changes, .renew, .release, .claim, .enqueue, .prune: true
        case .releaseFailed, .cancel, .retry, .logAttempt, .pause, .wake: false
        }
    }
}

extension JournalWrite {
    /// Whether its commit may be lost without harm, so that it may run again unasked: a claim,
    /// whose records wait for their lease to run out when the worker never learned it took them,
    /// then go to any worker; a renewal, which extends the same leases again (fenced by their
    /// tokens, it answers a lease lost meanwhile as lost); an enqueue or an append (a step under
    /// its parent's lease), whose second run finds the record its first wrote, with the same
    /// entry, and answers it as the first would have (each answers the record it wrote or found);
    /// a settlement, or a transaction's settlements with the steps they write, whose second run
    /// finds each record written and settled as it settles it, and answers that (`same`,
    /// `settled`), as the first would have; a begin, which carries a token of its own that its
    /// first run keeps on the record it took (the batch function v13), so that its second run,
    /// finding that token there under its owner, answers as the first (`started` or `resumed`),
    /// where another begin of the same key finds it busy. A run whose first did not commit is
    /// fenced as the first was: by the lease's owner and attempt, which answer a lease lost
    /// meanwhile as lost. Releases and prunes keep their transaction, whose fate is asked.
    var isLosable: Bool {
        switch self {
        case .claim, .renew, .enqueue, .append, .settle, .changes, .begin, .beginOnQueue: true
        default: false
        }
    }
}
