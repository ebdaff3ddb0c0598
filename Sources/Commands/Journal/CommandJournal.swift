/// Where commands are written down before they run, and who runs them: a journal is shared by
/// any number of workers (tasks, processes, machines), and every unfinished record belongs to
/// one live worker at a time.
///
/// You rarely call a journal directly: ``JournaledInvoker`` runs commands and
/// ``DurableTransaction``s through it, ``CommandQueue`` enqueues work on it, ``QueueWorker``
/// claims and runs that work. ``InMemoryCommandJournal`` implements it here; a durable SQLite
/// journal and a PostgreSQL one implement the same calls, and every implementation passes
/// `CommandJournalConformance` from `BehaviorKitTesting`. What an operator does with a journal
/// (list, cancel, retry, prune, pause, schedules) is ``CommandJournalManagement``, which they
/// implement too.
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
///   is resumed (``CommandJournalManagement/pause(queue:)``).
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

    /// Begins `entry` as ``begin(_:lease:)`` does, except that a new record is written down on
    /// `queue`, held under `lease`: once the lease ends (its owner died, or released it), the
    /// queue's workers claim it as they claim an enqueued record. A workflow run in its caller's
    /// task starts so (``Workflows/run(_:key:input:)``). The default enqueues `entry` on `queue`,
    /// then begins it: two writes, between which a worker may claim it (then `.busy`); the
    /// in-memory, SQLite and PostgreSQL journals make it one.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)`` when the key holds another entry.
    func begin(_ entry: CommandJournalEntry, queue: String, lease: JournalLease) async throws -> CommandJournalBegin

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

    /// Gives up a root record `lease` holds (at its token) without settling it: it becomes
    /// claimable again after `delay`. With a `failure` (the attempt failed), the attempt is written
    /// down with its error in the same commit (``CommandJournalRecordDetails/attempts``). Does
    /// nothing when the owner no longer holds it. (``release(_:lease:after:)`` releases without a
    /// failure.)
    func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String?) async throws

    /// Takes up to `limit` pending root records that are due — from `queue`, or with `queue`
    /// `nil` the records run by their callers whose owners' leases expired — the highest
    /// priority first, then oldest first, and holds them under `lease`. With a `concurrency`,
    /// never holds more than that many records of the queue at once across all workers; with a
    /// `perPartition`, never more than that many of one partition of the queue
    /// (``CommandQueue/concurrencyPerPartition``): a record whose partition is full is skipped,
    /// and the claim takes the next ones, of other partitions. Atomic: two workers never claim
    /// one record. (``claim(_:from:concurrency:lease:)`` and its siblings leave out what they
    /// do not name.)
    ///
    /// - Parameters:
    ///   - limit: the most records to claim.
    ///   - queue: the queue to claim from, or `nil` for the records of callers whose owners
    ///     stopped.
    ///   - concurrency: the most records of `queue` held at once across all workers, or `nil`.
    ///   - perPartition: the most records of one partition of `queue` held at once across all
    ///     workers, or `nil`.
    ///   - deadOwner: a worker known to have stopped (its process exited): its records are taken
    ///     at once, without waiting for their leases to expire.
    ///   - lease: the claiming worker's lease, under which the records are held.
    func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
        lease: JournalLease
    ) async throws -> CommandJournalClaim

    /// Writes `entry` down on `queue`, due after `delay`, for a worker to claim; returns the
    /// existing record when the key is already there (which keeps the priority, partition and
    /// trace context it has). Returns once the record is durable. (``enqueue(_:queue:after:)``
    /// and its siblings leave out what they do not name.)
    ///
    /// - Parameters:
    ///   - entry: the work, under its idempotency key.
    ///   - queue: the queue whose workers claim it.
    ///   - delay: how long from now (the journal's clock) it waits before it is due.
    ///   - priority: of a queue's due records, claims take the highest priority first
    ///     (``CommandQueue/defaultPriority``).
    ///   - partition: the partition (a customer, a tenant) it counts against: claims under a
    ///     limit per partition never run more than that many of one partition at once
    ///     (``CommandQueue/concurrencyPerPartition``); `nil` for none.
    ///   - traceContext: the enqueuing caller's trace context (as its tracer injected it), kept
    ///     with a new record so that the worker that runs it continues the caller's trace
    ///     (``CommandJournalRecord/traceContext``).
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)`` when the key holds another entry.
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord

    /// Writes `jobs` down on `queue` in their order, each due after its delay at its priority, with the
    /// enqueuing caller's `traceContext` (as ``enqueue(_:queue:after:priority:partition:traceContext:)``); answers,
    /// in the same order, each job's record (the existing one for a key already there) or why
    /// it was refused. Every key is checked before any is written (`InvalidKeyError`: nothing
    /// written). The default enqueues them one after another; a journal with a group commit
    /// writes them in whole batches (PostgreSQL's in one statement of arrays).
    func enqueue(
        contentsOf jobs: [QueuedJob], queue: String, traceContext: [String: String]?
    ) async throws -> [Result<CommandJournalRecord, any Error>]

    /// Writes down that attempt `attempt.number` at the record `key` (a root `lease` holds, or
    /// its child when `parentKey` names it: a transaction's step, written or not yet) ended with `attempt.error` and
    /// is tried again: ``CommandJournalRecordDetails/attempts`` then lists it. The journal stamps
    /// it with its own time. Does nothing when the lease's owner no longer holds the root. The
    /// default keeps nothing: a journal that keeps attempts implements it.
    func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws

    /// The record with `key`, or `nil`.
    func record(forKey key: String) async throws -> CommandJournalRecord?

    /// The records still pending, in sequence order: running, waiting, or left by a crash.
    func unfinished() async throws -> [CommandJournalRecord]

    /// The records whose entry names `parentKey` as its parent, in sequence order.
    func records(parentKey: String) async throws -> [CommandJournalRecord]

    /// Every record, in sequence order.
    func allRecords() async throws -> [CommandJournalRecord]

    /// The records that pass `filter`, in sequence order: at most `limit` (at least 1) after the
    /// record whose sequence is `cursor` (`nil`: from the first), and the cursor of the next page.
    /// The default reads every record (``CommandJournal/allRecords()``) and filters them: a
    /// journal with an index implements it.
    ///
    /// - Complexity: the stores' indexed queries read the page, not the journal.
    func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws
        -> CommandJournalPage

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

    /// Finishes the writes under way, then releases the journal's connections: later calls
    /// throw. Call it last, when the workers on the journal have stopped.
    func close() async throws

    /// Whether a stall of the journal's writes (a writer paused while it holds the one write
    /// lock) cannot cost a lease: no claim can run while a renewal waits, and the stalled write
    /// gives its time back to the leases. A worker then lets a renewal that is under way answer
    /// before it gives up its work. `false` by default; `true` for SQLite.
    var leasesOutlastWriteStalls: Bool { get }
}
