public import Commands
public import GRDB

/// Enqueueing inside a transaction of the application's own GRDB database: the queued record
/// commits with the business write, or rolls back with it.
extension SQLiteCommandJournal {
    /// Writes `entry` down on `queue`, due after `delay` at `priority`, inside `db`'s transaction: the record
    /// commits with the rest of the transaction, and a rollback leaves nothing of it. Returns the
    /// existing record when the key is already there (it is not enqueued again).
    ///
    /// The journal must live in the application's database
    /// (``init(database:path:clock:logger:)``, its table made by ``registerMigrations(in:)``), and
    /// `db` must be a connection of that database (the journal cannot tell another one apart).
    ///
    /// ```swift
    /// let record = try await dbPool.write { db in
    ///     try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (?, ?)", arguments: [42, 990])
    ///     return try journal.enqueue(entry, queue: "payments", in: db)
    /// }
    /// ```
    ///
    /// Workers see the record once the transaction commits: a `QueueWorker` of the queue claims
    /// it at its next look, at most its `pollInterval` later (it is not woken by the commit). Its
    /// time, and its delay, are the journal's clock's.
    ///
    /// - Parameters:
    ///   - entry: the record to write.
    ///   - queue: the queue it waits on.
    ///   - delay: how long after now it falls due.
    ///   - priority: its priority: of the queue's due records, claims take the highest first
    ///     (`CommandQueue.defaultPriority`).
    ///   - traceContext: the enqueuing caller's trace context, for the worker to continue
    ///     (`CommandJournalRecord.traceContext`); `nil` keeps none.
    ///   - db: the application's connection, inside a transaction (`write`, `inTransaction`).
    /// - Throws: `CommandJournalError.conflictingEntry(key:)` when the key holds another entry
    ///   (nothing is written; the transaction can go on); `CommandJournalError.unsupported` when
    ///   the journal keeps its own file (``init(path:durability:busyTimeout:clock:verification:logger:)``):
    ///   its records cannot commit with the application's; a ``SQLiteStoreError`` when
    ///   SQLite refuses the write (no journal table in `db`: the migrations were not run).
    @discardableResult
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority, traceContext: [String: String]? = nil, in db: Database
    ) throws -> CommandJournalRecord {
        guard !ownsDatabase else {
            throw CommandJournalError.unsupported(
                operation: "enqueue in the application's transaction: the journal at \(path) keeps its own file; "
                    + "keep it in the application's database with SQLiteCommandJournal(database:path:) and "
                    + "SQLiteCommandJournal.registerMigrations(in:)")
        }
        try JournalWrite.enqueue(
            entry, queue: queue, after: delay, priority: priority, partition: nil, traceContext: traceContext
        )
        .checkKeys()
        let now = self.now
        var record: CommandJournalRecord?
        do {
            // A savepoint: a refusal halfway undoes this enqueue alone, and the caller's
            // transaction can go on.
            try db.inSavepoint {
                record = try CommandJournalSchema.enqueue(
                    entry, queue: queue, after: delay, priority: priority, traceContext: traceContext, now: now, db,
                    path: path)
                return .commit
            }
        } catch let error as CommandJournalError {
            throw error
        } catch {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
        guard let record else {
            throw SQLiteStoreError(code: .ioFailed, path: path, reason: "the enqueue wrote no record")
        }
        return record
    }
}

/// Enqueueing a queue's typed commands inside a transaction of the application's own GRDB
/// database, as `CommandQueue`'s asynchronous `enqueue` writes them outside one.
extension CommandQueue {
    /// Enqueues `command` (a `JournaledCommand`, or a `JournaledStep` with an output) under `key`, due after
    /// `delay` at `priority`, inside `db`'s transaction: it commits or rolls back with the business write (``SQLiteCommandJournal/enqueue(_:queue:after:priority:traceContext:in:)``).
    ///
    /// ```swift
    /// let payments = CommandQueue("payments", journal: journal)  // SQLiteCommandJournal(database: dbPool, …)
    /// try await dbPool.write { db in
    ///     try db.execute(sql: "INSERT INTO orders (id, cents) VALUES (?, ?)", arguments: [42, 990])
    ///     try payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge", in: db)
    /// }
    /// ```
    ///
    /// - Throws: `CommandJournalError.unsupported` unless the queue's journal is a
    ///   ``SQLiteCommandJournal`` in the application's database; as
    ///   ``SQLiteCommandJournal/enqueue(_:queue:after:priority:traceContext:in:)`` otherwise.
    @discardableResult
    public func enqueue<J: Journaled>(
        _ command: J, key: String, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority, in db: Database
    ) throws -> CommandJournalRecord {
        try enqueue(
            CommandRegistry.entry(kind: J.journalKind, arguments: command, key: key), after: delay, priority: priority,
            in: db)
    }

    /// Enqueues `transaction` (its record, its steps and recovery in its payload), due after
    /// `delay`, inside `db`'s transaction: a worker runs it from the start once it commits.
    @discardableResult
    public func enqueue(
        _ transaction: DurableTransaction, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority, in db: Database
    ) throws -> CommandJournalRecord {
        try enqueue(transaction.entry, after: delay, priority: priority, in: db)
    }

    /// Enqueues `entry`, due after `delay`, inside `db`'s transaction, with the caller's trace
    /// context when a tracer is bootstrapped.
    @discardableResult
    public func enqueue(
        _ entry: CommandJournalEntry, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority, in db: Database
    ) throws -> CommandJournalRecord {
        guard let journal = journal as? SQLiteCommandJournal else {
            throw CommandJournalError.unsupported(
                operation: "enqueue in a GRDB transaction on the queue '\(name)': its journal is a "
                    + "\(type(of: journal)), not a SQLiteCommandJournal in the application's database")
        }
        return try journal.enqueue(
            entry, queue: name, after: delay, priority: priority, traceContext: TraceCarrier.current(), in: db)
    }
}
