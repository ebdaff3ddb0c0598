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
    /// Whether its commit may be lost without harm: a claim, whose records wait for their lease
    /// to run out when the worker never learned it took them, then go to any worker.
    var isLosable: Bool {
        if case .claim = self { return true }
        return false
    }
}
