public import Commands
import Foundation
import PostgresNIO

extension PostgresCommandJournal {
    /// The records passing `filter`, read through the indexes on sequence, status and queue;
    /// see `CommandJournal.records(matching:after:limit:)`.
    public func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        let limit = max(1, limit)
        var conditions = ["sequence > $1::bigint"]
        var values: [(any PostgresEncodable & Sendable)?] = [cursor ?? 0]
        func add(_ condition: (String) -> String, _ value: any PostgresEncodable & Sendable) {
            values.append(value)
            conditions.append(condition("$\(values.count)"))
        }
        if !filter.statuses.isEmpty { add({ "status = ANY(\($0)::text[])" }, filter.statuses.map(\.rawValue).sorted()) }
        if let queue = filter.queue { add({ "queue = \($0)::text" }, queue) }
        if let kind = filter.kind { add({ "kind = \($0)::text" }, kind) }
        if let prefix = filter.keyPrefix {
            // The range reads the index in byte order; starts_with is the exact test.
            add({ "key COLLATE \"C\" >= \($0)::text AND starts_with(key, \($0)::text)" }, prefix)
            add({ "key COLLATE \"C\" < \($0)::text" }, prefix + "\u{10FFFF}")
        }
        if let owner = filter.owner { add({ "owner = \($0)::text" }, owner) }
        if let since = filter.updatedSince { add({ "updated_at >= \($0)::bigint" }, since.journalMilliseconds) }
        if let before = filter.updatedBefore { add({ "updated_at < \($0)::bigint" }, before.journalMilliseconds) }
        if filter.rootsOnly { conditions.append("parent_key IS NULL") }
        if let cancelled = filter.cancelled {
            let cancellation = "(failure_reason = 'cancelled' OR starts_with(failure_reason, 'cancelled: '))"
            conditions.append(cancelled ? cancellation : "(failure_reason IS NULL OR NOT \(cancellation))")
        }
        values.append(Int64(limit) + 1)
        let sql = """
            SELECT \(PostgresJournalSQL.columns) FROM "\(table)"
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY sequence LIMIT $\(values.count)::bigint
            """
        let bound = values
        let records = try await read { connection in try await self.records(sql, bound, connection) }
        let page = Array(records.prefix(limit))
        return CommandJournalPage(records: page, nextCursor: records.count > limit ? page.last?.sequence : nil)
    }

    /// The record `key` in full; see `CommandJournal.details(forKey:)`.
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        guard StoredKey.isStorable(key) else { return nil }
        let sql = management
        let children = PostgresJournalSQL(table: table).select("WHERE parent_key = $1::text ORDER BY sequence")
        let byKey = PostgresJournalSQL(table: table).select("WHERE key = $1::text")
        return try await read { connection in
            guard let record = try await self.records(byKey, [key], connection).first else { return nil }
            let steps = try await self.records(children, [key], connection)
            let logged = try await self.rows(sql.loggedAttempts, [key], connection).map { row in
                let (number, owner, error, ended) = try row.decode((Int64, String?, String?, Int64).self)
                return CommandJournalAttempt(
                    number: Int(clamping: number), owner: owner, error: error,
                    endedAt: Date(journalMilliseconds: ended))
            }
            return CommandJournalRecordDetails(
                record: record, children: steps, attempts: CommandJournalAttempt.all(of: record, logged: logged))
        }
    }

    /// The workers holding records, from the index of pending records; see
    /// `CommandJournal.workers()`.
    public func workers() async throws -> [CommandJournalWorker] {
        let sql = management.held
        return CommandJournalWorker.holding(
            try await read { connection in try await self.records(sql, [], connection) })
    }

    /// Each queue's depth, counted on the index of open records; see `CommandJournal.queues()`.
    public func queues() async throws -> [CommandJournalQueueStatistics] {
        let sql = management.queues
        let now = writer.clock.map { $0.currentDate.journalMilliseconds.clampedForJournal }
        return try await read { connection in
            try await self.rows(sql, [now], connection).map { row in
                let (name, due, delayed, running, stalled, oldest) = try row.decode(
                    (String?, Int64, Int64, Int64, Int64, Int64?).self)
                return CommandJournalQueueStatistics(
                    name: name, due: Int(clamping: due), delayed: Int(clamping: delayed),
                    running: Int(clamping: running), stalled: Int(clamping: stalled),
                    oldestDue: oldest.map(Date.init(journalMilliseconds:)))
            }
        }
    }

    private func records(
        _ sql: String, _ values: [(any PostgresEncodable & Sendable)?], _ connection: PostgresConnection
    ) async throws -> [CommandJournalRecord] {
        let names = writer.names
        return try await rows(sql, values, connection).compactMap { row in
            try PostgresJournalRow(row, names).record(at: 0)
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        try await connections.withConnection(body)
    }
}
