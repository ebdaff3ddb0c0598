/// A journal that tells the callers waiting on a record (``JobHandle/result()``) when it may
/// have settled, so that they read it at once instead of at their next poll.
///
/// Every journal of BehaviorKit is one. Like a ``QueueWakeSource``'s, a wake-up is a hint:
/// the waiter reads the record and waits again when it is still pending, and it still polls,
/// at its `pollInterval`, as a safety net.
///
/// - `InMemoryCommandJournal` wakes the waiters of the same journal object at each settlement
///   and cancellation through it.
/// - SQLite's journal does too, and, within a few milliseconds, on another process's commit
///   to the same file, which its watcher sees (`PRAGMA data_version`).
/// - PostgreSQL's journal does too, and, while callers wait, looks every few milliseconds
///   which of their records settled in any process (one indexed query for all of them).
public protocol JobSettlementSource: Sendable {
    /// An element each time the record `key` may have settled; it ends when the journal closes
    /// or the consumer stops iterating. Wake-ups that come while the consumer is busy are merged
    /// into one.
    func settlements(of key: String) -> AsyncStream<Void>
}
