public import Commands
import Foundation
public import PostgresNIO

/// Enqueueing on the application's own connection, inside its transaction: the queued record
/// commits with the business write, or rolls back with it.
extension PostgresCommandJournal {
    /// Writes `entry` down on `queue`, due after `delay` at `priority`, on `connection`: inside the transaction
    /// open on it (`BEGIN … COMMIT`, or `PostgresClient.withTransaction`), the record commits with
    /// the rest of it and a rollback leaves nothing; outside one, it commits at once. Returns the
    /// existing record when the key is already there (it is not enqueued again).
    ///
    /// ```swift
    /// let record = try await client.withTransaction(logger: logger) { connection in
    ///     try await connection.query("INSERT INTO orders (id, cents) VALUES (42, 990)", logger: logger)
    ///     return try await journal.enqueue(entry, queue: "payments", on: connection)
    /// }
    /// ```
    ///
    /// The write is the journal's own: one call of its table's batch function, as its group
    /// commit makes (run as an unnamed statement, so that nothing is left prepared on your
    /// connection). `connection` must reach the journal's database, with the table's schema on
    /// its `search_path`. Workers see the record once the transaction commits: a `QueueWorker`
    /// of the queue claims it at its next look, at most its `pollInterval` later (the commit does
    /// not wake it). With the server's clock (the journal opened without a `clock`), the delay
    /// counts from the write's time on the server.
    ///
    /// - Parameters:
    ///   - entry: the record to write.
    ///   - queue: the queue it waits on.
    ///   - delay: how long after now it falls due.
    ///   - priority: its priority: of the queue's due records, claims take the highest first
    ///     (`CommandQueue.defaultPriority`).
    ///   - traceContext: the enqueuing caller's trace context, for the worker to continue
    ///     (`CommandJournalRecord.traceContext`); `nil` keeps none.
    ///   - connection: the application's connection.
    /// - Throws: `CommandJournalError.conflictingEntry(key:)` when the key holds another entry
    ///   (nothing is written, and the transaction can go on); a ``PostgresStoreError``
    ///   when the journal is closed, a text holds U+0000 (refused before anything is sent), or the
    ///   server refuses the write (the transaction is then aborted: roll it back).
    @discardableResult
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority, traceContext: [String: String]? = nil,
        on connection: PostgresConnection
    ) async throws -> CommandJournalRecord {
        let write = JournalWrite.enqueue(
            entry, queue: queue, after: delay, priority: priority, partition: nil, traceContext: traceContext)
        let names = writer.names
        try write.checkKeys()
        try writer.validate(write)
        try connections.enter()
        defer { connections.leave() }
        do {
            var kept = false
            if let traceContext, !traceContext.isEmpty {
                let text = String(decoding: try JSONEncoder().encode(traceContext), as: UTF8.self)
                kept = try await !unprepared(keepTrace, [entry.idempotencyKey, text], connection).isEmpty
            }
            let answers = try await writer.call([write], on: connection, prepared: false)
            guard case .record(var record) = try writer.result(of: write, answers.first ?? []) else {
                throw names.error(.ioFailed, "the enqueue of '\(entry.idempotencyKey)' gave back no record")
            }
            if kept {
                record.traceContext = traceContext
            } else if let text = try await unprepared(traceOf, [record.id], connection).first?.decode(String.self) {
                record.traceContext = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
            }
            return record
        } catch let error as CommandJournalError {
            throw error
        } catch {
            throw names.error(error)
        }
    }

    /// `keepTrace` for many keys at once (`$1` an array); answers the keys written now.
    var keepTraces: String {
        """
        INSERT INTO \(management.traces) (key, context) SELECT k, $2::jsonb FROM unnest($1::text[]) AS k
        ON CONFLICT (key) DO NOTHING RETURNING key
        """
    }

    /// Keeps a queued record's trace context (`$1` its key, `$2` the context), unless its key
    /// keeps one already; returns the key when it wrote it.
    var keepTrace: String {
        """
        INSERT INTO \(management.traces) (key, context) VALUES ($1::text, $2::jsonb) ON CONFLICT (key) DO NOTHING
        RETURNING key
        """
    }

    /// The trace context kept for the key `$1`, as text.
    private var traceOf: String { "SELECT context::text FROM \(management.traces) WHERE key = $1::text" }

    /// The rows of `sql` with `values`, run as an unnamed statement on a connection the journal
    /// does not own.
    private func unprepared(
        _ sql: String, _ values: [String], _ connection: PostgresConnection
    ) async throws -> [PostgresRow] {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return try await connection.rowsWhileOpen(
            PostgresQuery(unsafeSQL: sql, binds: bindings), logger: connections.logger)
    }
}

/// Enqueueing a queue's typed commands on the application's connection, inside its
/// transaction, as `CommandQueue`'s `enqueue` writes them on the journal's own.
extension CommandQueue {
    /// Enqueues `command` (a `JournaledCommand`, or a `JournaledStep` with an output) under `key`,
    /// due after `delay` at `priority`, on `connection`, inside its transaction: it commits or rolls back with the business write
    /// (``PostgresCommandJournal/enqueue(_:queue:after:priority:traceContext:on:)``).
    ///
    /// ```swift
    /// let payments = CommandQueue("payments", journal: journal)  // a PostgresCommandJournal
    /// try await client.withTransaction(logger: logger) { connection in
    ///     try await connection.query("INSERT INTO orders (id, cents) VALUES (42, 990)", logger: logger)
    ///     try await payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge", on: connection)
    /// }
    /// ```
    ///
    /// - Throws: `CommandJournalError.unsupported` unless the queue's journal is a
    ///   ``PostgresCommandJournal``; as ``PostgresCommandJournal/enqueue(_:queue:after:priority:traceContext:on:)``
    ///   otherwise.
    @discardableResult
    public func enqueue<J: Journaled>(
        _ command: J, key: String, after delay: Duration = .zero, priority: Int = CommandQueue.defaultPriority,
        on connection: PostgresConnection
    ) async throws -> CommandJournalRecord {
        try await enqueue(
            CommandRegistry.entry(kind: J.journalKind, arguments: command, key: key), after: delay, priority: priority,
            on: connection)
    }

    /// Enqueues `transaction` (its record, its steps and recovery in its payload), due after
    /// `delay`, on `connection`, inside its transaction: a worker runs it from the start once it
    /// commits.
    @discardableResult
    public func enqueue(
        _ transaction: DurableTransaction, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority, on connection: PostgresConnection
    ) async throws -> CommandJournalRecord {
        try await enqueue(transaction.entry, after: delay, priority: priority, on: connection)
    }

    /// Enqueues `entry`, due after `delay`, on `connection`, inside its transaction, with the
    /// caller's trace context when a tracer is bootstrapped.
    @discardableResult
    public func enqueue(
        _ entry: CommandJournalEntry, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority, on connection: PostgresConnection
    ) async throws -> CommandJournalRecord {
        guard let journal = journal as? PostgresCommandJournal else {
            throw CommandJournalError.unsupported(
                operation: "enqueue on a PostgreSQL connection on the queue '\(name)': its journal is a "
                    + "\(type(of: journal)), not a PostgresCommandJournal")
        }
        return try await journal.enqueue(
            entry, queue: name, after: delay, priority: priority, traceContext: TraceCarrier.current(), on: connection)
    }
}
