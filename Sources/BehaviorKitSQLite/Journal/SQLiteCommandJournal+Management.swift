public import Commands
import Foundation
import GRDB

extension SQLiteCommandJournal {
    /// Releases `key` and logs the attempt's failure, in one commit; see
    /// `CommandJournal.release(_:lease:after:failure:)`.
    public func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String) async throws {
        _ = try await submit(.releaseFailed(key, lease, delay, failure))
    }

    /// Logs an attempt at `key`, fenced by `lease`; see `CommandJournal.logAttempt(_:of:parentKey:lease:)`.
    public func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {
        _ = try await submit(.logAttempt(attempt, key, parentKey, lease))
    }

    /// Cancels `key`, in one commit; see `CommandJournal.cancel(_:reason:)`.
    public func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        guard case .record(let record) = try await submit(.cancel(key, reason)) else {
            throw SQLiteCommandJournalError(code: .ioFailed, path: path, reason: "a cancel gave back no record")
        }
        return record
    }

    /// Retries `key`, in one commit; see `CommandJournal.retry(_:)`.
    public func retry(_ key: String) async throws -> CommandJournalRecord {
        guard case .record(let record) = try await submit(.retry(key)) else {
            throw SQLiteCommandJournalError(code: .ioFailed, path: path, reason: "a retry gave back no record")
        }
        return record
    }

    /// The records passing `filter`, read through the indexes on sequence, status, key and
    /// queue; see `CommandJournal.records(matching:after:limit:)`.
    public func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        let limit = max(1, limit)
        let path = self.path
        let records = try await read { db in
            let byKey = try filter.keyPrefix.map { try CommandJournalSchema.isNarrow($0, db) } ?? false
            let (sql, bound) = CommandJournalSchema.listing(filter, after: cursor, limit: limit + 1, byKey: byKey)
            return try Row.fetchAll(db, sql: sql, arguments: bound).map { row in
                try CommandJournalSchema.record(row, path: path)
            }
        }
        let page = Array(records.prefix(limit))
        return CommandJournalPage(records: page, nextCursor: records.count > limit ? page.last?.sequence : nil)
    }

    /// The record `key` in full; see `CommandJournal.details(forKey:)`.
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        let path = self.path
        return try await read { db in
            guard let record = try CommandJournalSchema.fetch(key, db, path: path) else { return nil }
            let children = try Row.fetchAll(
                db,
                sql:
                    "SELECT \(CommandJournalSchema.selectColumns) FROM commandRecord WHERE parentKey = ? ORDER BY sequence",
                arguments: [key]
            ).map { row in try CommandJournalSchema.record(row, path: path) }
            let logged = try CommandJournalSchema.loggedAttempts(key, db)
            return CommandJournalRecordDetails(
                record: record, children: children, attempts: CommandJournalAttempt.all(of: record, logged: logged))
        }
    }

    /// The workers holding records, from the index of pending records; see
    /// `CommandJournal.workers()`.
    public func workers() async throws -> [CommandJournalWorker] {
        let path = self.path
        let held = try await read { db in
            try Row.fetchAll(
                db,
                sql: CommandJournalSchema.held
            ).map { row in try CommandJournalSchema.record(row, path: path) }
        }
        return CommandJournalWorker.holding(held)
    }

    /// Each queue's depth, counted on the index of open records; see `CommandJournal.queues()`.
    public func queues() async throws -> [CommandJournalQueueStatistics] {
        let now = self.now
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: CommandJournalSchema.queues, arguments: [now]
            ).map { row in
                let oldest: Int64? = row["oldestDue"]
                return CommandJournalQueueStatistics(
                    name: row["queue"], due: row["due"] ?? 0, delayed: row["delayed"] ?? 0,
                    running: row["running"] ?? 0, stalled: row["stalled"] ?? 0,
                    oldestDue: oldest.map(Date.init(journalMilliseconds:)))
            }
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.read(body)
        } catch {
            throw SQLiteCommandJournalError(path: path, error, opening: false)
        }
    }
}
