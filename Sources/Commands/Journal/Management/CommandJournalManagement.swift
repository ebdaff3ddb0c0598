#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What an operator does with a journal, beside what workers do (``CommandJournal``): list and
/// read records, see workers and queues, cancel, retry and prune, pause and resume queues, keep
/// schedules. The management API, the `behaviorkit journal` commands, the console and
/// ``QueueScheduler`` use it; ``InMemoryCommandJournal`` and the SQLite and PostgreSQL journals
/// implement every call (`CommandJournalConformance` checks them), so that no call of an operator
/// answers "unsupported".
///
/// ```swift
/// let journal: any CommandJournalManagement = InMemoryCommandJournal()
/// let failed = try await journal.records(matching: CommandJournalFilter(statuses: [.failed]), after: nil, limit: 50)
/// for record in failed.records { _ = try await journal.retry(record.id) }
/// ```
public protocol CommandJournalManagement: CommandJournal {
    /// Deletes the root records that settled before `date` (last changed before it) with one of
    /// `statuses` (empty: any settled status), on `queue` (`nil`: any, work run by callers
    /// included), with their children; returns how many records were deleted (children
    /// included). At most `limit` roots go (`nil`: every one), those that settled first first,
    /// so that a pass's work is bounded. Pending records are never deleted, nor a settled root
    /// with a pending child. ``prune(settledBefore:)`` deletes every settled root before `date`.
    ///
    /// ```swift
    /// let week = clock.currentDate.addingTimeInterval(-7 * 86_400)
    /// try await journal.prune(settledBefore: week, statuses: [.done], queue: "mail", limit: 1_000)
    /// ```
    func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int

    /// The record with `key` in full: its children (a transaction's steps), its attempts with
    /// their errors, its due time, why it compensated; `nil` when there is no such key. The
    /// default reads the record and its children; it knows no attempt's error but the last.
    func details(forKey key: String) async throws -> CommandJournalRecordDetails?

    /// The workers holding records, by owner: what each holds and until when.
    func workers() async throws -> [CommandJournalWorker]

    /// Each queue's depth by state (due, delayed, running, stalled) and oldest due time, read
    /// from the pending records only (the work run by callers under the name `nil`).
    func queues() async throws -> [CommandJournalQueueStatistics]

    /// Cancels the root record `key`, atomically, for `reason`:
    /// - a pending record no worker holds (waiting on a queue, delayed, or released to be
    ///   retried) settles failed with the reason `"cancelled: <reason>"`: it never runs;
    /// - so does a command held under a lease that ended (its worker stopped): settled, it
    ///   takes no write of the stopped attempt, and is not run again;
    /// - a durable transaction a worker holds is taken from it: its fencing token goes up (so
    ///   the running attempt's next write is refused, and it stops before its next step), it is
    ///   marked cancelled (``CommandJournalCancellation``) and falls due at once; the worker that
    ///   takes it next compensates it. So is a transaction no worker holds whose steps began;
    /// - a workflow's run (``Workflows``) a live worker or caller holds is taken from it and
    ///   marked so too: its code stops at its next step, sleep or receive, and the attempt that
    ///   takes it next (its caller's, or a worker's) settles it failed, cancelled; so is a run
    ///   with a finished step to compensate, held or not, whose next attempt compensates it.
    ///
    /// Cancelling a transaction already marked changes nothing. Returns the record as it is now.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotCancel(key:status:reason:)`` for a settled record, a step,
    ///   or a command a live worker runs now (it has no step to stop before; a workflow's run
    ///   does).
    func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord

    /// Makes a failed or compensated root record `key` pending again, due at once, for a new
    /// attempt: the attempt that ended keeps its error in ``CommandJournalRecordDetails/attempts``;
    /// a transaction's steps are cleared, so that it runs from its first step (steps are
    /// idempotent under their keys). A queue's worker claims it; work run by callers is taken
    /// by a recovery (``JournaledInvoker/recover(takingOverFrom:policy:)``). Atomic. Returns the record.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotRetry(key:status:)`` for a pending or done record, or a step.
    func retry(_ key: String) async throws -> CommandJournalRecord

    /// Pauses `queue`, durably and for every worker of every process: from the time this
    /// returns, claims from the queue take nothing (and answer no next due time), while its
    /// records can still be enqueued, and the records already claimed run and settle as
    /// usual. Pausing a paused queue changes nothing.
    func pause(queue: String) async throws

    /// Resumes `queue`, paused by ``pause(queue:)``: claims take its due records again, and
    /// its sleeping workers are woken at once (in this process, and in others where the
    /// store tells them). Resuming a queue that is not paused changes nothing.
    func resume(queue: String) async throws

    /// The queues paused now, by name.
    func pausedQueues() async throws -> Set<String>

    /// What each queue did per minute since `since`: its root records settled done and failed
    /// (by their last change) with how long they waited to be picked up, and its attempts that
    /// failed and were retried (by their end), ordered by queue, then minute; a minute with none
    /// of these is left out. For a chart of the last hour: reads every record changed since then.
    func activity(since: Date) async throws -> [QueueActivity]

    /// Sets the rate limit of `queue` counted by `scope` (the whole queue's starts, or each
    /// partition's apart), durably and for every worker of every process: from the time this
    /// returns, claims start no more of the queue's records than the limit's token bucket
    /// allows, reckoned on the journal's clock in the claim's own transaction; the records held
    /// back stay pending, and a claim that takes nothing for the limit answers when the next
    /// start is due (``CommandJournalClaim/nextDue``). `nil` removes the limit. A new or changed
    /// limit starts with full buckets, and wakes the queue's workers but those asleep until the
    /// old limit's next start, which take it then (or at their poll interval); setting the
    /// limit a queue has changes nothing.
    ///
    /// - Throws: `InvalidKeyError` when the queue's name cannot be kept.
    func setRateLimit(_ limit: QueueRateLimit?, queue: String, scope: QueueRateLimitScope) async throws

    /// The rate limits kept now, by queue, then scope.
    func rateLimits() async throws -> [CommandJournalRateLimit]

    /// Adds `schedule`, or replaces the schedule of the same name, durably for every process:
    /// its revision goes up by one and its ticks count from now (the journal's clock), with
    /// no last tick. Returns the schedule as kept.
    func saveSchedule(_ schedule: QueueSchedule) async throws -> CommandJournalSchedule

    /// Removes the schedule `name`: no scheduler enqueues its ticks after this returns (the
    /// ticks already enqueued stay). Answers whether there was one.
    func removeSchedule(named name: String) async throws -> Bool

    /// The schedules, by name.
    func schedules() async throws -> [CommandJournalSchedule]

    /// Sets the last tick of the schedule `name` to `tick` when it is still at `revision` with
    /// the last tick `lastTick` (compare and set); answers whether it did. A scheduler calls it
    /// once it enqueued the ticks up to `tick`.
    func advanceSchedule(named name: String, revision: Int64, from lastTick: Date?, to tick: Date) async throws -> Bool

    /// Retries, as ``retry(_:)`` does one by one, the failed and compensated root records that
    /// pass `filter` (its statuses narrowed to those two; ``CommandJournalFilter/deadLetters(queue:)``
    /// for the dead letters), in sequence order after `cursor`, at most `limit` (at least 1) of
    /// them; answers what it retried, what was refused (a record that changed meanwhile), and
    /// the cursor to call again with when more may match.
    ///
    /// ```swift
    /// var cursor: Int64?
    /// repeat {
    ///     let batch = try await journal.retry(matching: .deadLetters(queue: "mail"), after: cursor, limit: 500)
    ///     cursor = batch.nextCursor
    /// } while cursor != nil
    /// ```
    ///
    /// - Throws: ``JournalBulkActionError/nothingToAct(action:statuses:)`` when `filter` lists
    ///   only statuses that cannot be retried; the journal's error when a read fails.
    func retry(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws
        -> JournalBulkResult

    /// Cancels, as ``cancel(_:reason:)`` does one by one, the pending root records that pass
    /// `filter` (its statuses narrowed to pending), for `reason`, in sequence order after
    /// `cursor`, at most `limit` (at least 1) of them; answers what it cancelled, what was
    /// refused (a command a live worker runs now), and the cursor to call again with when more
    /// may match.
    ///
    /// - Throws: ``JournalBulkActionError/nothingToAct(action:statuses:)`` when `filter` lists
    ///   only settled statuses; the journal's error when a read fails.
    func cancel(
        matching filter: CommandJournalFilter, reason: String, after cursor: Int64?, limit: Int
    )
        async throws -> JournalBulkResult
}
