public import Commands
import Foundation
import GRDB

extension SQLiteCommandJournal {
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
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: bound).map { row in
                try CommandJournalSchema.record(row, path: path)
            }
        }
        let page = Array(records.prefix(limit))
        return CommandJournalPage(records: page, nextCursor: records.count > limit ? page.last?.sequence : nil)
    }

    /// The record `key` in full; see `CommandJournal.details(forKey:)`.
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        guard StoredKey.isStorable(key) else { return nil }
        let path = self.path
        return try await read { db in
            guard let record = try CommandJournalSchema.fetch(key, db, path: path) else { return nil }
            let children = try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT \(CommandJournalSchema.selectColumns) FROM commandRecord WHERE parentKey = ? ORDER BY sequence"
                ),
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
            try Row.fetchAll(db.cachedStatement(sql: CommandJournalSchema.held)).map { row in
                try CommandJournalSchema.record(row, path: path)
            }
        }
        return CommandJournalWorker.holding(held)
    }

    /// The queues paused now; see `CommandJournal.pausedQueues()`.
    public func pausedQueues() async throws -> Set<String> {
        try await read { db in try CommandJournalSchema.pausedQueues(db) }
    }

    /// Each queue's depth, counted on the index of open records; see `CommandJournal.queues()`.
    public func queues() async throws -> [CommandJournalQueueStatistics] {
        let now = self.now
        return try await read { db in
            try Row.fetchAll(db.cachedStatement(sql: CommandJournalSchema.queues), arguments: [now]).map { row in
                let oldest: Int64? = row["oldestDue"]
                return CommandJournalQueueStatistics(
                    name: row["queue"], due: row["due"] ?? 0, delayed: row["delayed"] ?? 0,
                    running: row["running"] ?? 0, stalled: row["stalled"] ?? 0,
                    oldestDue: oldest.map(Date.init(journalMilliseconds:)))
            }
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.read(body)
        } catch {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
    }
}
