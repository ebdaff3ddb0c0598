/// How long a queue keeps its settled records: a ``QueueWorker`` given one prunes them as they
/// age, by status, in passes run by one worker of the fleet at a time.
///
/// ```swift
/// let retention = QueueRetention(succeeded: .seconds(86_400), failed: .seconds(7 * 86_400))
/// let worker = QueueWorker(payments, invoker: invoker, retention: retention)
/// ```
///
/// An ``interval`` after the first worker started, and every ``interval`` after, one worker of
/// the queue, in any process, wins the pass (``prune(_:on:now:)``) and deletes the records
/// that settled longer ago than their status keeps them, at most ``limit`` roots of each kind
/// (with their steps) — the first settled first, so that the next pass goes on where this one
/// stopped. A pending record is never
/// pruned, nor a settled one with a pending child. Every worker of a queue should be given the
/// same retention: one given another saves its own, and passes count from that save.
///
/// Oban's `Pruner` and River's job cleaner do the same. River keeps completed jobs 24 hours and
/// discarded ones 7 days by default, as here; it keeps cancelled ones 24 hours, where here they
/// count with the failed.
public struct QueueRetention: Sendable, Hashable, Codable {
    /// How long a record that ended done is kept; `nil`: for ever.
    public var succeeded: Duration?
    /// How long a record that failed for good (its retries used up), was cancelled, or was
    /// compensated is kept; `nil`: for ever.
    public var failed: Duration?
    /// The most roots each kind (succeeded, failed) loses in one pass: a pass's bounded work.
    public var limit: Int
    /// How often a pass runs, across the fleet.
    public var interval: Duration

    /// A retention keeping done records for `succeeded` and the others for `failed`, pruning
    /// at most `limit` roots of each kind every `interval` (values below 1 count as 1; an
    /// interval below a second counts as a second).
    public init(
        succeeded: Duration? = .seconds(86_400), failed: Duration? = .seconds(7 * 86_400), limit: Int = 1_000,
        interval: Duration = .seconds(60)
    ) {
        self.succeeded = succeeded
        self.failed = failed
        self.limit = max(1, limit)
        self.interval = max(interval, .seconds(1))
    }
}
