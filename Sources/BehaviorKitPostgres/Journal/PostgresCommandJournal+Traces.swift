public import Commands
import Foundation
import PostgresNIO

/// The trace context a queued record carries from the caller that enqueued it to the worker that
/// claims it (``CommandJournalRecord/traceContext``): one row per key in `<table>_traces`,
/// written before the record (so that no claim can come first), read by each claim in the batch
/// function (v8), and pruned with the record.
extension PostgresCommandJournal {
    /// Enqueues `entry` at `priority` in `partition`, keeping `traceContext`; see
    /// `CommandJournal.enqueue(_:queue:after:priority:partition:traceContext:)`.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        guard let traceContext, !traceContext.isEmpty else {
            return try await channel.enqueue(
                entry, queue: queue, after: delay, priority: priority, partition: partition, traceContext: nil)
        }
        let text = String(decoding: try JSONEncoder().encode(traceContext), as: UTF8.self)
        let sql = keepTrace
        let kept = try await connections.withConnection(writes: true) { connection in
            try await !self.rows(sql, [entry.idempotencyKey, text], connection).isEmpty
        }
        var record = try await channel.enqueue(
            entry, queue: queue, after: delay, priority: priority, partition: partition, traceContext: traceContext)
        // The context this key keeps: this one when it was written now, else the one written before (read once,
        // only for a key enqueued again).
        record.traceContext = kept ? traceContext : try await traces(of: [record.id])[record.id]
        return record
    }

    /// Enqueues `jobs` in whole statements (one `INSERT` of arrays a statement), keeping `traceContext` for each new record; see
    /// `CommandJournal.enqueue(contentsOf:queue:traceContext:)`.
    public func enqueue(
        contentsOf jobs: [QueuedJob], queue: String, traceContext: [String: String]?
    ) async throws -> [Result<CommandJournalRecord, any Error>] {
        guard let traceContext, !traceContext.isEmpty, !jobs.isEmpty else {
            return try await enqueueInBulk(jobs, queue: queue)
        }
        // The keys are checked before the contexts are written, as the channel checks them before the records.
        try StoredKey.check(queue, "queue name")
        for job in jobs { try job.entry.checkKeys() }
        let text = String(decoding: try JSONEncoder().encode(traceContext), as: UTF8.self)
        let sql = keepTraces
        let kept = try await connections.withConnection(writes: true) { connection in
            Set(
                try await self.rows(sql, [jobs.map(\.entry.idempotencyKey), text], connection).map {
                    try $0.decode(String.self)
                })
        }
        var answers = try await enqueueInBulk(jobs, queue: queue)
        // A key enqueued before keeps the context written then (read once, only for those keys).
        let earlier = answers.compactMap { try? $0.get().id }.filter { !kept.contains($0) }
        let contexts = earlier.isEmpty ? [:] : try await traces(of: earlier)
        for index in answers.indices {
            guard case .success(var record) = answers[index] else { continue }
            record.traceContext = kept.contains(record.id) ? traceContext : contexts[record.id]
            answers[index] = .success(record)
        }
        return answers
    }

    /// The trace contexts kept for `keys`, by key.
    private func traces(of keys: [String]) async throws -> [String: [String: String]] {
        let sql = "SELECT key, context::text FROM \(management.traces) WHERE key = ANY($1::text[])"
        let rows = try await connections.withConnection { connection in try await self.rows(sql, [keys], connection) }
        var traces: [String: [String: String]] = [:]
        for row in rows {
            let (key, text) = try row.decode((String, String).self)
            traces[key] = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        }
        return traces
    }
}
