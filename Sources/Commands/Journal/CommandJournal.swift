#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Where commands are written down before they run, and who runs them: a journal is shared by
/// any number of workers (tasks, processes, machines), and every unfinished record belongs to
/// one live worker at a time.
///
/// You rarely call a journal directly: ``JournaledInvoker`` runs commands and
/// ``DurableTransaction``s through it, ``CommandQueue`` enqueues work on it, ``QueueWorker``
/// claims and runs that work. ``InMemoryCommandJournal`` implements it here; a durable SQLite
/// journal and a PostgreSQL one implement the same calls, and every implementation passes
/// `CommandJournalConformance` from `BehaviorKitTesting`.
///
/// ```swift
/// let journal = InMemoryCommandJournal()
/// let lease = JournalLease(owner: "worker-1", duration: .seconds(30))
/// guard case .started(let record) = try await journal.begin(entry, lease: lease) else { return }
/// try await charge.execute()
/// try await journal.settle(entry.idempotencyKey, as: .done(output: nil), lease: lease.fenced(by: record))
/// ```
///
/// Rules every journal keeps, each in one atomic change:
/// - **One record per key.** Writing a key that exists changes nothing (a retried request does
///   not run twice) or, when its kind, payload or parent differ, throws
///   ``CommandJournalError/conflictingEntry(key:)``.
/// - **Owners and leases.** A pending *root* record (one without a parent) is held by the
///   worker that began or claimed it, until its lease expires; the owner renews the lease while
///   it lives. A root's children (a transaction's steps) are held with it. Only records whose
///   lease expired can be taken over, so a live owner's work is never touched.
/// - **Fencing.** Every begin or claim that takes a root up starts a new attempt, whose token
///   (``CommandJournalRecord/attempts``) is one more than the last. Appending a child, settling,
///   renewing and releasing require that the lease's owner holds the root *at the lease's
///   token* (``JournalLease/token``), checked in the same statement as the write; otherwise they
///   throw ``CommandJournalError/leaseLost(key:owner:)`` (or, for a renewal, leave the key out)
///   and change nothing. A stale attempt never writes again, even when the worker that claimed
///   the record next is its own. A settled root changes no more.
/// - **Queues.** An enqueued record waits, with no owner, until it is due; claims take due
///   records by priority first (the highest, ``CommandJournalRecord/priority``), then oldest
///   first, and never exceed a queue's concurrency. A record not yet due is never taken for its
///   priority, nor holds back a due one. A paused queue's records are not claimed until it
///   is resumed (``pause(queue:)``).
/// - Times (`createdAt`, leases, due times) come from the journal's own clock, so that every
///   worker judges a lease by the same time.
public protocol CommandJournal: Sendable {
    /// Starts the work that `entry` records, under `lease`: writes the record down as pending
    /// and held when its key is new; takes it over when it is pending under an expired lease
    /// (or waits on a queue and is due); otherwise changes nothing and says why. Returns once
    /// the change is durable.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)`` when the key holds another entry.
    func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin

    /// Writes down `entry`, a child of a root record that `lease` holds (a transaction's step),
    /// as pending; returns the existing record when the key is already there.
    ///
    /// - Throws: ``CommandJournalError/leaseLost(key:owner:)`` when the lease's owner does not
    ///   hold the parent; ``CommandJournalError/conflictingEntry(key:)``.
    func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord

    /// Settles the record with `key` (a root `lease` holds, or one of its children): done with
    /// its output, failed with a reason, or compensated. A settled root's lease ends. Settling a
    /// record again as it already is changes nothing.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``; ``CommandJournalError/leaseLost(key:owner:)``
    ///   when the lease's owner does not hold the root.
    func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws

    /// Makes `changes` in one atomic commit, all or none: settles each record, writing a child
    /// that is not there yet with its entry (settled at once). Every change must be on a root
    /// `lease` holds, or one of its children; the root itself may settle in the same commit.
    ///
    /// - Throws: ``CommandJournalError/leaseLost(key:owner:)``,
    ///   ``CommandJournalError/unknownKey(_:)`` or ``CommandJournalError/conflictingEntry(key:)``,
    ///   and then nothing changed.
    func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws

    /// Extends the leases on the root records among `attempts` (keys with the fencing token of
    /// the attempt that renews them) that `lease`'s owner still holds at that token, to
    /// `lease.duration` from now; returns those keys. A key missing from the answer was lost.
    func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String]

    /// Gives up a root record `lease` holds (at its token) without settling it: it becomes claimable again
    /// after `delay`. Does nothing when the owner no longer holds it.
    func release(_ key: String, lease: JournalLease, after delay: Duration) async throws

    /// Takes up to `limit` pending root records that are due — from `queue`, or with `queue`
    /// `nil` the records run by their callers whose owners' leases expired — the highest
    /// priority first, then oldest first, and
    /// holds them under `lease`. With a `concurrency`, never holds more than that many records of
    /// the queue at once across all workers. Atomic: two workers never claim one record.
    ///
    /// - Parameters:
    ///   - limit: the most records to claim.
    ///   - queue: the queue to claim from, or `nil` for the records of callers whose owners
    ///     stopped.
    ///   - concurrency: the most records of `queue` held at once across all workers, or `nil`.
    ///   - deadOwner: a worker known to have stopped (its process exited): its records are taken
    ///     at once, without waiting for their leases to expire.
    ///   - lease: the claiming worker's lease, under which the records are held.
    func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim

    /// ``claim(_:from:concurrency:takingOverFrom:lease:)``, and never holding more than
    /// `perPartition` records of one partition of the queue at once across all workers
    /// (``CommandQueue/concurrencyPerPartition``): a record whose partition is full is skipped,
    /// and the claim takes the next ones, of other partitions. The default claims without a
    /// limit per partition, and refuses one: a journal that keeps partitions implements this.
    ///
    /// - Throws: by default, ``CommandJournalError/unsupported(operation:)`` for a `perPartition`.
    func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
        lease: JournalLease
    ) async throws -> CommandJournalClaim

    /// Writes `entry` down on `queue`, due after `delay`, for a worker to claim; returns the
    /// existing record when the key is already there. Returns once the record is durable.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)``.
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws -> CommandJournalRecord

    /// ``enqueue(_:queue:after:)``, keeping `traceContext` (the enqueuing caller's, as its
    /// tracer injected it) with a new record, so that the worker that runs it continues the
    /// caller's trace (``CommandJournalRecord/traceContext``). A key already there keeps the
    /// context it has. The default drops the context: a journal that keeps it implements this.
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, traceContext: [String: String]?
    ) async throws -> CommandJournalRecord

    /// ``enqueue(_:queue:after:traceContext:)`` at `priority`: of a queue's due records, claims
    /// take the highest priority first (``CommandQueue/defaultPriority``). A key already there
    /// keeps the priority it has. The default enqueues at the default priority, and refuses
    /// another: a journal that keeps priorities implements this.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)``; by default,
    ///   ``CommandJournalError/unsupported(operation:)`` for a priority other than the default.
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord

    /// ``enqueue(_:queue:after:priority:traceContext:)`` in `partition` (a customer, a tenant):
    /// claims under a limit per partition never run more than that many of one partition at once
    /// (``CommandQueue/concurrencyPerPartition``). A key already there keeps the partition it has.
    /// The default enqueues without a partition, and refuses one: a journal that keeps
    /// partitions implements this.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)``; by default,
    ///   ``CommandJournalError/unsupported(operation:)`` for a partition.
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord

    /// Writes `jobs` down on `queue` in their order, each due after its delay at its priority, with the
    /// enqueuing caller's `traceContext` (as ``enqueue(_:queue:after:traceContext:)``); answers,
    /// in the same order, each job's record (the existing one for a key already there) or why
    /// it was refused. Every key is checked before any is written (`InvalidKeyError`: nothing
    /// written). The default enqueues them one after another; a journal with a group commit
    /// writes them in whole batches (PostgreSQL's in one statement of arrays).
    func enqueue(
        contentsOf jobs: [QueuedJob], queue: String, traceContext: [String: String]?
    ) async throws -> [Result<CommandJournalRecord, any Error>]

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

    /// The record with `key`, or `nil`.
    func record(forKey key: String) async throws -> CommandJournalRecord?

    /// The records still pending, in sequence order: running, waiting, or left by a crash.
    func unfinished() async throws -> [CommandJournalRecord]

    /// The records whose entry names `parentKey` as its parent, in sequence order.
    func records(parentKey: String) async throws -> [CommandJournalRecord]

    /// Every record, in sequence order.
    func allRecords() async throws -> [CommandJournalRecord]

    /// Gives up a root record `lease` holds (at its token) after its attempt failed with
    /// `failure`, to be tried again after `delay`: as ``release(_:lease:after:)``, and the
    /// attempt is written down with its error in the same commit
    /// (``CommandJournalRecordDetails/attempts``). Does nothing when the owner no longer holds
    /// it. The default releases without keeping the error: a journal that keeps attempts
    /// implements it.
    func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String) async throws

    /// Writes down that attempt `attempt.number` at the record `key` (a root `lease` holds, or
    /// its child when `parentKey` names it: a transaction's step, written or not yet) ended with `attempt.error` and
    /// is tried again: ``CommandJournalRecordDetails/attempts`` then lists it. The journal stamps
    /// it with its own time. Does nothing when the lease's owner no longer holds the root. The
    /// default keeps nothing: a journal that keeps attempts implements it.
    func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws

    /// The records that pass `filter`, in sequence order: at most `limit` (at least 1) after the
    /// record whose sequence is `cursor` (`nil`: from the first), and the cursor of the next page.
    /// The default reads every record (``allRecords()``) and filters them: a journal with an
    /// index implements it.
    ///
    /// - Complexity: the stores' indexed queries read the page, not the journal.
    func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws
        -> CommandJournalPage

    /// The record with `key` in full: its children (a transaction's steps), its attempts with
    /// their errors, its due time, why it compensated; `nil` when there is no such key. The
    /// default reads the record and its children; it knows no attempt's error but the last.
    func details(forKey key: String) async throws -> CommandJournalRecordDetails?

    /// The workers holding records, by owner: what each holds and until when.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func workers() async throws -> [CommandJournalWorker]

    /// Each queue's depth by state (due, delayed, running, stalled) and oldest due time, read
    /// from the pending records only (the work run by callers under the name `nil`).
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func queues() async throws -> [CommandJournalQueueStatistics]

    /// Cancels the root record `key`, atomically, for `reason`:
    /// - a pending record no worker holds (waiting on a queue, delayed, or released to be
    ///   retried) settles failed with the reason `"cancelled: <reason>"`: it never runs;
    /// - so does a command held under a lease that ended (its worker stopped): settled, it
    ///   takes no write of the stopped attempt, and is not run again;
    /// - a durable transaction a worker holds is taken from it: its fencing token goes up (so
    ///   the running attempt's next write is refused, and it stops before its next step), it is
    ///   marked cancelled (``CommandJournalCancellation``) and falls due at once; the worker that
    ///   takes it next compensates it. So is a transaction no worker holds whose steps began.
    ///
    /// Cancelling a transaction already marked changes nothing. Returns the record as it is now.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotCancel(key:status:reason:)`` for a settled record, a step,
    ///   or a command a live worker runs now (it has no step to stop before);
    ///   ``CommandJournalError/unsupported(operation:)`` by default.
    func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord

    /// Makes a failed or compensated root record `key` pending again, due at once, for a new
    /// attempt: the attempt that ended keeps its error in ``CommandJournalRecordDetails/attempts``;
    /// a transaction's steps are cleared, so that it runs from its first step (steps are
    /// idempotent under their keys). A queue's worker claims it; work run by callers is taken
    /// by a recovery (``JournaledInvoker/recover(takingOverFrom:policy:)``). Atomic. Returns the record.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotRetry(key:status:)`` for a pending or done record, or a step;
    ///   ``CommandJournalError/unsupported(operation:)`` by default.
    func retry(_ key: String) async throws -> CommandJournalRecord

    /// Pauses `queue`, durably and for every worker of every process: from the time this
    /// returns, claims from the queue take nothing (and answer no next due time), while its
    /// records can still be enqueued, and the records already claimed run and settle as
    /// usual. Pausing a paused queue changes nothing.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func pause(queue: String) async throws

    /// Resumes `queue`, paused by ``pause(queue:)``: claims take its due records again, and
    /// its sleeping workers are woken at once (in this process, and in others where the
    /// store tells them). Resuming a queue that is not paused changes nothing.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func resume(queue: String) async throws

    /// Makes the pending root record `key` — one waiting on a queue, held by no worker, due
    /// later (released to wait, or enqueued with a delay) — due now, and wakes its queue's
    /// workers (in this process, and in others where the store tells them); answers whether it
    /// did. A record that is held, due already, settled, a child, run by its caller, or missing
    /// changes nothing: `false`. A worker that takes it early must wait again for what it waits
    /// for (a workflow's receive wakes its run this way when a message comes, and a sleep the
    /// run finds not over is slept again).
    ///
    /// The default changes nothing and answers `false`: the record is taken when it falls due.
    func wake(_ key: String) async throws -> Bool

    /// The queues paused now, by name.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func pausedQueues() async throws -> Set<String>

    /// Adds `schedule`, or replaces the schedule of the same name, durably for every process:
    /// its revision goes up by one and its ticks count from now (the journal's clock), with
    /// no last tick. Returns the schedule as kept.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func saveSchedule(_ schedule: QueueSchedule) async throws -> CommandJournalSchedule

    /// Removes the schedule `name`: no scheduler enqueues its ticks after this returns (the
    /// ticks already enqueued stay). Answers whether there was one.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func removeSchedule(named name: String) async throws -> Bool

    /// The schedules, by name.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func schedules() async throws -> [CommandJournalSchedule]

    /// Sets the last tick of the schedule `name` to `tick` when it is still at `revision` with
    /// the last tick `lastTick` (compare and set); answers whether it did. A scheduler calls it
    /// once it enqueued the ticks up to `tick`.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` by default.
    func advanceSchedule(named name: String, revision: Int64, from lastTick: Date?, to tick: Date) async throws -> Bool

    /// Finishes the writes under way, then releases the journal's connections: later calls
    /// throw. Call it last, when the workers on the journal have stopped.
    func close() async throws

    /// Whether a stall of the journal's writes (a writer paused while it holds the one write
    /// lock) cannot cost a lease: no claim can run while a renewal waits, and the stalled write
    /// gives its time back to the leases. A worker then lets a renewal that is under way answer
    /// before it gives up its work. `false` by default; `true` for SQLite.
    var leasesOutlastWriteStalls: Bool { get }

    // MARK: - Management: bulk actions
    //
    // Operator actions on many records at once, bounded per call. Every journal implements
    // them (no default); they belong with the management requirements.

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
