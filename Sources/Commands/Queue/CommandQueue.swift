/// A durable queue of commands on a ``CommandJournal``: ``enqueue(_:key:after:priority:partition:)``
/// returns once the command is durable, and any number of ``QueueWorker``s (tasks or processes)
/// claim and run it under leases. A delayed command is a durable timer: it survives restarts
/// and runs once.
///
/// ```swift
/// let payments = CommandQueue("payments", journal: journal, concurrency: 4)
/// try await payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge")
/// try await payments.enqueue(SendReminder(order: 42), key: "order-42/remind", after: .seconds(86_400))
/// try await QueueWorker(payments, invoker: invoker, slots: 8).run()  // in each worker process
/// ```
///
/// The queue is the journal seen as work to claim: an enqueued record is pending with no
/// owner until it is due, then a worker claims it, runs it, and settles it; the same key
/// enqueued twice is one record. Of the due records, workers claim the highest `priority`
/// first, then the oldest (``defaultPriority``).
public struct CommandQueue: Sendable {
    /// The priority of a job enqueued without one: 0. Higher runs first: of a queue's due
    /// records a claim takes those with the highest priority, then, among equals, the oldest
    /// (enqueued first). A priority above 0 jumps the queue (`10` for a password reset ahead of
    /// newsletters); one below 0 waits for the rest (`-10` for a backfill). Any `Int` is kept.
    ///
    /// Higher-first with a default of 0 is PgQueuer's and Procrastinate's convention, and what
    /// the word says; it leaves room on both sides of the default, so urgent and background
    /// work are both one number away, without renumbering. River (1 highest to 4) and Oban
    /// (0 highest to 9) count the other way, lower first, from a default that is already the
    /// highest: a job ported from them negates its priority. A priority orders the claims; it
    /// never lets a job run before it is due, or a queue run more than its ``concurrency``.
    public static let defaultPriority = 0

    /// The queue's name.
    public let name: String
    /// Where the queue is kept.
    public let journal: any CommandJournal
    /// How many of the queue's commands may run at once, across every worker; `nil`: no limit.
    public let concurrency: Int?
    /// How many of the queue's commands of one partition (a customer, a tenant: the `partition`
    /// given at enqueue) may run at once, across every worker; `nil`: no limit. Jobs enqueued
    /// without a partition are held by ``concurrency`` alone.
    public let concurrencyPerPartition: Int?

    /// The queue `name` on `journal`, running at most `concurrency` of its commands at once, and
    /// at most `concurrencyPerPartition` of one partition (values below 1 count as 1).
    public init(
        _ name: String, journal: any CommandJournal, concurrency: Int? = nil, concurrencyPerPartition: Int? = nil
    ) {
        self.name = name
        self.journal = journal
        self.concurrency = concurrency.map { max(1, $0) }
        self.concurrencyPerPartition = concurrencyPerPartition.map { max(1, $0) }
    }

    /// Enqueues `command` (a ``JournaledCommand``, or a ``JournaledStep`` with an output) under
    /// `key`, due after `delay`, at `priority` (higher is claimed first: ``defaultPriority``);
    /// returns once it is durable (or the key's existing record, which is not enqueued again, and
    /// keeps its priority).
    @discardableResult
    public func enqueue<J: Journaled>(
        _ command: J, key: String, after delay: Duration = .zero, priority: Int = defaultPriority,
        partition: String? = nil
    ) async throws -> CommandJournalRecord {
        try await enqueue(
            CommandRegistry.entry(kind: J.journalKind, arguments: command, key: key), after: delay, priority: priority,
            partition: partition)
    }

    /// Enqueues a command registered as `kind` with `arguments`, under `key`, due after `delay`, at `priority`.
    @discardableResult
    public func enqueue(
        kind: String, arguments: some Encodable, key: String, after delay: Duration = .zero,
        priority: Int = defaultPriority, partition: String? = nil
    ) async throws -> CommandJournalRecord {
        try await enqueue(
            CommandRegistry.entry(kind: kind, arguments: arguments, key: key), after: delay, priority: priority,
            partition: partition)
    }

    /// Enqueues `transaction` (its steps and recovery), due after `delay`, at `priority`: a worker runs it
    /// from the start, and a worker that takes it over settles it as its recovery says.
    @discardableResult
    public func enqueue(
        _ transaction: DurableTransaction, after delay: Duration = .zero, priority: Int = defaultPriority,
        partition: String? = nil
    ) async throws
        -> CommandJournalRecord
    {
        try await enqueue(transaction.entry, after: delay, priority: priority, partition: partition)
    }

    /// Enqueues `entry`, due after `delay`, at `priority`, with the caller's trace context when a tracer is
    /// bootstrapped (or bound with `withTracer`): the worker's spans then continue the caller's
    /// trace (<doc:Observability>).
    @discardableResult
    public func enqueue(
        _ entry: CommandJournalEntry, after delay: Duration = .zero, priority: Int = defaultPriority,
        partition: String? = nil
    ) async throws -> CommandJournalRecord {
        try await journal.enqueue(
            entry, queue: name, after: delay, priority: priority, partition: partition,
            traceContext: TraceCarrier.current())
    }

    /// Enqueues `jobs` on the queue in their order (each with its key, delay and priority), as few
    /// commits as the journal's batches allow — PostgreSQL writes up to 256 jobs a statement,
    /// SQLite up to 1,024 a transaction — and returns their records in the same order (a key
    /// already there answers its existing record, which is not enqueued again).
    ///
    /// ```swift
    /// let jobs = try orders.map { try QueuedJob(SendReceipt(order: $0), key: "receipt-\($0)") }
    /// try await mail.enqueue(contentsOf: jobs)
    /// ```
    ///
    /// Every key is checked before any job is written: one the journal cannot keep refuses the
    /// whole call. The jobs commit batch by batch, not all or none: a process that dies during
    /// the call leaves the batches that committed, and calling again with the same keys writes
    /// only the rest. To enqueue all or none with your own writes, enqueue in your
    /// application's transaction.
    ///
    /// - Throws: `InvalidKeyError` (nothing written) when a key cannot be kept;
    ///   ``BulkEnqueueError`` when some jobs were refused (a key holding another entry) and the
    ///   others written.
    @discardableResult
    public func enqueue(contentsOf jobs: [QueuedJob]) async throws -> [CommandJournalRecord] {
        let answers = try await journal.enqueue(contentsOf: jobs, queue: name, traceContext: TraceCarrier.current())
        var records: [CommandJournalRecord?] = []
        records.reserveCapacity(answers.count)
        var refusals: [BulkEnqueueError.Refusal] = []
        for (index, answer) in answers.enumerated() {
            switch answer {
            case .success(let record): records.append(record)
            case .failure(let error):
                records.append(nil)
                refusals.append(.init(index: index, key: jobs[index].entry.idempotencyKey, error: error))
            }
        }
        guard refusals.isEmpty else { throw BulkEnqueueError(refusals: refusals, records: records) }
        return records.compactMap { $0 }
    }
}
