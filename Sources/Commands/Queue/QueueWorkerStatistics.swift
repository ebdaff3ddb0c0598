/// What a ``QueueWorker`` did since it was made.
///
/// ```swift
/// print(worker.statistics)  // queue payments: 120 claimed (3 taken over), 117 done, 2 failed, 1 compensated
/// ```
public struct QueueWorkerStatistics: Sendable, Hashable, CustomStringConvertible {
    /// The queue.
    public var queue: String
    /// Records claimed.
    public var claimed = 0
    /// Of those, records another worker had held before (it stopped; its lease expired).
    public var takenOver = 0
    /// Commands and transactions that ran to the end.
    public var done = 0
    /// Commands that failed for good, and transactions whose compensation failed.
    public var failed = 0
    /// Attempts that failed and were released to be tried again (their retry policy, or a
    /// ``RetryAfter``).
    public var retried = 0
    /// Transactions compensated.
    public var compensated = 0
    /// Records whose kind is not registered, or whose payload does not decode: given back for
    /// a worker that knows them.
    public var unreadable = 0
    /// Records lost to another worker while they ran (this worker's lease lapsed).
    public var lost = 0
    /// How many records the worker runs at once now: its `slots`, fewer after it lost attempts
    /// to leases that lapsed (halved at each, one back per as many settled in time).
    public var openSlots = 0
    /// Claims that failed because the journal could not be reached; the worker retried.
    public var journalErrors = 0
    /// The last journal error, if any.
    public var lastJournalError: String?
    /// Records deleted by the passes of the queue's retention this worker ran
    /// (``QueueWorker/retention``).
    public var pruned = 0

    /// Empty statistics of `queue`.
    public init(queue: String) {
        self.queue = queue
    }

    /// "queue payments: 120 claimed (3 taken over), 117 done, 2 failed, 1 compensated".
    public var description: String {
        var text =
            "queue \(queue): \(claimed) claimed (\(takenOver) taken over), \(done) done, \(failed) failed, "
            + "\(compensated) compensated"
        if retried > 0 { text += ", \(retried) retried" }
        if unreadable > 0 { text += ", \(unreadable) unreadable" }
        if lost > 0 { text += ", \(lost) lost" }
        if pruned > 0 { text += ", \(pruned) pruned" }
        if journalErrors > 0 { text += ", \(journalErrors) journal errors (last: \(lastJournalError ?? ""))" }
        return text
    }
}
