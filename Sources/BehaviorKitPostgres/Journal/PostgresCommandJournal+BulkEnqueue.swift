import Commands
import Foundation
import PostgresNIO

/// `enqueue(contentsOf:)` on PostgreSQL: the jobs in one `INSERT … SELECT FROM unnest(…)` of
/// typed arrays, up to `bulkChunk` a statement, each statement a transaction of its own,
/// instead of one `INSERT` per job in the batch function's loop (and a commit per 256 of them).
///
/// A key already there (written before, or twice in the call) answers its record, as a single enqueue
/// does; with another entry, `conflictingEntry`. The statement changes nothing a second time
/// (`ON CONFLICT DO NOTHING`, then the rows that were there), so it runs again after its connection
/// was lost. A key another transaction inserted while the statement waited on it is read again
/// once the statement ended.
extension PostgresCommandJournal {
    /// The most jobs one statement writes.
    static let bulkChunk = 5_000

    /// The insert: `$1` the time now or NULL, `$2`… the jobs' arrays, `$9` the queue. Answers the
    /// rows it inserted (`true`): only what the server chose (the sequence, the due time and the
    /// time written; the other columns NULL: the caller has them), then the rows of the keys that
    /// were there before (`false`), whole. The statement notifies the queue's workers once, not
    /// its trigger once a row (``PostgresQueueNotifications/quiet``).
    var bulkInsert: String {
        let t = "\"\(table)\""
        return """
            WITH e AS (
                SELECT * FROM unnest($2::text[], $3::text[], $4::bytea[], $5::text[], $6::bigint[], $7::bigint[],
                    $8::text[]) WITH ORDINALITY AS e(key, kind, payload, parent_key, ms, priority, partition_key, n)
            ), c AS (
                SELECT COALESCE($1::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint) AS now,
                    set_config('\(PostgresQueueNotifications.quiet)', 'on', true) AS quiet
            ),
            i AS (
                INSERT INTO \(t) AS t (key, kind, payload, parent_key, status, lease_expires_at, queue, attempts,
                    created_at, updated_at, priority, partition_key)
                SELECT e.key, e.kind, COALESCE(e.payload, ''::bytea), e.parent_key, 'pending', c.now + e.ms, $9::text, 0,
                    c.now, c.now, COALESCE(e.priority, \(CommandQueue.defaultPriority)), e.partition_key
                FROM e CROSS JOIN c ORDER BY e.n
                ON CONFLICT (key) DO NOTHING
                RETURNING t.sequence, t.key, t.lease_expires_at, t.created_at),
            n AS (SELECT \(PostgresQueueNotifications.notifyOnce(table, queue: "$9::text")) AS sent)
            SELECT true, \(Self.insertedColumns) FROM i CROSS JOIN n
            UNION ALL
            SELECT false, \(PostgresJournalColumn.list("t.")) FROM \(t) AS t WHERE t.key = ANY($2::text[])
            """
    }

    /// The columns of an inserted row (``bulkInsert``): what the server chose, NULL for the rest.
    static let insertedColumns = PostgresJournalColumn.allCases.map { column in
        switch column {
        case .sequence, .key, .leaseExpiresAt, .createdAt: "i.\(column.name)"
        default: "NULL::\(column.type)"
        }
    }.joined(separator: ", ")

    /// The record `job` inserted on `queue`, from what the server chose for it (``insertedColumns``).
    static func inserted(
        _ job: QueuedJob, queue: String, _ cells: PostgresJournalRow, at first: Int
    ) throws(PostgresStoreError) -> CommandJournalRecord {
        func at(_ column: PostgresJournalColumn) -> Int { first + column.offset }
        let createdAt = Date(journalMilliseconds: try cells.value(at(.createdAt), as: Int64.self))
        return CommandJournalRecord(
            sequence: try cells.value(at(.sequence)), entry: job.entry, status: .pending, failureReason: nil,
            output: nil, owner: nil,
            leaseExpiresAt: try cells.value(at(.leaseExpiresAt), as: Int64?.self).map(Date.init(journalMilliseconds:)),
            queue: queue, attempts: 0, createdAt: createdAt, updatedAt: createdAt, priority: job.priority)
    }

    /// Enqueues `jobs` on `queue` in whole statements; each job answers its record or its refusal,
    /// in the jobs' order. Every key is checked before any is written.
    func enqueueInBulk(_ jobs: [QueuedJob], queue: String) async throws -> [Result<CommandJournalRecord, any Error>] {
        try StoredKey.check(queue, "queue name")
        for job in jobs { try job.entry.checkKeys() }
        let names = connections.names
        var answers = [Result<CommandJournalRecord, any Error>](
            repeating: .failure(names.error(.ioFailed, "a write went unanswered")), count: jobs.count)
        // A job the table cannot hold is refused alone.
        var valid: [Int] = []
        for (index, job) in jobs.enumerated() {
            do throws(PostgresStoreError) {
                try writer.validate(
                    .enqueue(
                        job.entry, queue: queue, after: job.delay, priority: job.priority, partition: job.partition,
                        traceContext: nil))
                valid.append(index)
            } catch {
                answers[index] = .failure(error)
            }
        }
        for low in stride(from: 0, to: valid.count, by: Self.bulkChunk) {
            let chunk = Array(valid[low..<min(valid.count, low + Self.bulkChunk)])
            let outcomes = await enqueueChunk(chunk.map { jobs[$0] }, queue: queue)
            for (index, outcome) in zip(chunk, outcomes) { answers[index] = outcome }
        }
        return answers
    }

    /// What one run of the insert gave: every key's record and the keys it inserted, or the
    /// server's refusal.
    private enum BulkOutcome: Sendable {
        case answered(records: [String: CommandJournalRecord], inserted: Set<String>)
        case failed(sqlState: String?, PostgresStoreError)
    }

    /// Enqueues one statement's `jobs`. When the server refuses the statement (a value it cannot
    /// store; a deadlock with another process inserting the same keys in another order), nothing
    /// of it was written: the jobs go through the batch function instead, which runs again after
    /// a deadlock and, after a refusal, writes each job alone so that only the job at fault fails.
    private func enqueueChunk(_ jobs: [QueuedJob], queue: String) async -> [Result<CommandJournalRecord, any Error>] {
        let outcome: BulkOutcome
        do {
            outcome = try await insert(jobs, queue: queue)
        } catch {
            return jobs.map { _ in .failure(error) }
        }
        switch outcome {
        case .answered(let records, let inserted):
            channel.queueSignal.signal(queue)
            var answered = Set<String>()
            return jobs.map { job in
                let key = job.entry.idempotencyKey
                guard let record = records[key] else {
                    return .failure(connections.names.error(.ioFailed, "the bulk enqueue did not answer \(key)"))
                }
                // The job that inserted its key answers it; a later one with that key, as a key there before.
                let first = answered.insert(key).inserted
                return (first && inserted.contains(key)) || record.entry == job.entry
                    ? .success(record) : .failure(CommandJournalError.conflictingEntry(key: key))
            }
        case .failed(let state?, _) where !PostgresJournalWriter.isConnectionState(state):
            do {
                return try await channel.enqueue(contentsOf: jobs, queue: queue, traceContext: nil)
            } catch {
                return jobs.map { _ in .failure(error) }
            }
        case .failed(_, let error):
            return jobs.map { _ in .failure(error) }
        }
    }

    /// Runs the insert for `jobs` once.
    private func insert(_ jobs: [QueuedJob], queue: String) async throws -> BulkOutcome {
        typealias Arguments = PostgresJournalBatchArguments
        var keys = Arguments.Texts(), kinds = Arguments.Texts(), parents = Arguments.Texts()
        var partitions = Arguments.Texts(), payloads = Arguments.Bytes()
        var ms = Arguments.Numbers(), priorities = Arguments.Numbers()
        for job in jobs {
            keys.elements.append(job.entry.idempotencyKey)
            kinds.elements.append(job.entry.kind)
            payloads.elements.append(ByteBuffer(bytes: job.entry.payload))
            parents.elements.append(job.entry.parentKey)
            ms.elements.append(job.delay.journalMilliseconds.clampedForJournal)
            priorities.elements.append(Int64(job.priority))
            partitions.elements.append(job.partition)
        }
        let now = writer.clock.map { $0.currentDate.journalMilliseconds.clampedForJournal }
        let values: [(any PostgresEncodable & Sendable)?] = [
            now, keys, kinds, payloads, parents, ms, priorities, partitions, queue,
        ]
        let names = connections.names
        let sql = bulkInsert
        let outcome = try await connections.withConnection(writes: true) { connection -> BulkOutcome in
            let rows: [PostgresRow]
            do {
                rows = try await self.rows(sql, values, connection)
            } catch {
                return .failed(sqlState: PostgresJournalWriter.sqlState(error), names.error(error))
            }
            // The job that inserted a key is the first with it (the insert goes in the jobs' order).
            var first: [String: QueuedJob] = [:]
            for job in jobs where first[job.entry.idempotencyKey] == nil { first[job.entry.idempotencyKey] = job }
            var records: [String: CommandJournalRecord] = [:]
            var inserted = Set<String>()
            let keyColumn = 1 + PostgresJournalColumn.key.offset
            for row in rows {
                let cells = PostgresJournalRow(row, names)
                if try cells.value(0, as: Bool.self) {
                    let key = try cells.value(keyColumn, as: String.self)
                    guard let job = first[key] else { continue }
                    records[key] = try Self.inserted(job, queue: queue, cells, at: 1)
                    inserted.insert(key)
                } else if let record = try cells.record(at: 1) {
                    records[record.id] = record
                }
            }
            return .answered(records: records, inserted: inserted)
        }
        guard case .answered(var records, let inserted) = outcome else { return outcome }
        // Keys another transaction inserted while the statement waited on them: its snapshot predates them.
        let missing = Array(Set(jobs.map(\.entry.idempotencyKey)).subtracting(records.keys))
        if !missing.isEmpty {
            let reread = "SELECT \(PostgresJournalColumn.list()) FROM \"\(table)\" WHERE key = ANY($1::text[])"
            let rows = try await connections.withConnection { connection in
                try await self.rows(reread, [missing], connection)
            }
            for row in rows {
                if let record = try PostgresJournalRow(row, names).record(at: 0) { records[record.id] = record }
            }
        }
        return .answered(records: records, inserted: inserted)
    }
}
