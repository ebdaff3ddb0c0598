/// A journal that tells a queue's workers when work may have come, so that they claim it at
/// once instead of at their next poll.
///
/// ``QueueWorker/run()`` listens when its journal is one: every journal of BehaviorKit is. A
/// wake-up is a hint, never a promise: it may come when there is nothing to claim (another
/// worker was first, or the record is delayed: the worker then sleeps until it falls due), and
/// one may be lost (a listener reconnecting), which is why the worker still polls, at its
/// `pollInterval`, as a safety net.
///
/// - `InMemoryCommandJournal` and SQLite's journal wake the workers of the same journal object,
///   in the same process, on each enqueue and retry; another process's enqueue on the same file
///   is seen at the next poll.
/// - PostgreSQL's journal wakes the workers of every process: a trigger on the journal's table
///   sends `NOTIFY` when a record of a queue becomes claimable (enqueued, from Swift, from SQL or
///   in the application's transaction, at its commit; retried; released), and each journal
///   listens on one connection of its pool.
public protocol QueueWakeSource: Sendable {
    /// An element each time `queue` may have work to claim; it ends when the journal closes or
    /// the consumer stops iterating. Wake-ups that come while the consumer is busy are merged
    /// into one.
    func wakeups(of queue: String) -> AsyncStream<Void>
}
