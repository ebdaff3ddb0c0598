public import Commands
public import Foundation
import Logging
import PostgresNIO

extension PostgresCommandJournal {
    var management: PostgresJournalManagementSQL { PostgresJournalManagementSQL(table: table) }

    /// Releases `key`, and logs the attempt's failure in the same transaction; see
    /// `CommandJournal.release(_:lease:after:failure:)`.
    public func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String?) async throws {
        guard let failure else { return try await channel.release(key, lease: lease, after: delay) }
        try writer.validate(.releaseFailed(key, lease, after: delay, failure: failure))
        _ = try await action { connection, sql, now in
            guard let record = try await self.locked(key, connection),
                record.status == .pending, record.entry.parentKey == nil,
                lease.holds(owner: record.owner, attempts: record.attempts)
            else { return nil }
            try await self.execute(sql.release, [key, now.adding(delay.journalMilliseconds), now], connection)
            try await self.log(
                CommandJournalAttempt(
                    number: record.attempts, owner: record.owner, error: Self.storable(failure),
                    endedAt: Date(journalMilliseconds: now)), of: key, sql.logAttempt, connection)
            return nil
        }
    }

    /// Logs an attempt at `key`, fenced by `lease` (the root locked `FOR SHARE` meanwhile); see
    /// `CommandJournal.logAttempt(_:of:parentKey:lease:)`.
    public func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {
        try writer.validate(.logAttempt(attempt, key: key, parentKey: parentKey, lease))
        _ = try await action { connection, sql, now in
            guard let row = try await self.rows(sql.holder, [parentKey ?? key], connection).first else { return nil }
            let (owner, status, parent, attempts) = try row.decode((String?, String, String?, Int64).self)
            guard status == CommandJournalStatus.pending.rawValue, parent == nil,
                lease.holds(owner: owner, attempts: Int(clamping: attempts))
            else { return nil }
            var logged = attempt
            logged.error = attempt.error.map(Self.storable)
            logged.endedAt = Date(journalMilliseconds: now)
            try await self.log(logged, of: key, sql.logAttempt, connection)
            return nil
        }
    }

    /// Cancels `key`, in one transaction; see `CommandJournal.cancel(_:reason:)`.
    public func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        try writer.validate(.cancel(key, reason: reason))
        defer { channel.settlementSignal.signal(key) }
        return try await action { connection, sql, now -> CommandJournalRecord? in
            guard let record = try await self.locked(key, connection) else { throw CommandJournalError.unknownKey(key) }
            let hasChildren = try await self.rows(sql.hasChildren, [key], connection).first?.decode(Bool.self) ?? false
            let markKey = CommandJournalCancellation.key(of: key)
            let compensationsKey = CommandJournalCancellation.compensationsKey(of: key)
            let writes = try CommandJournalCancellation.writes(
                record, hasChildren: hasChildren, isMarked: try await self.locked(markKey, connection) != nil,
                compensates: try await self.locked(compensationsKey, connection) != nil,
                reason: CommandJournalCancellation.reason(Self.storable(reason)), now: Date(journalMilliseconds: now))
            for write in writes {
                switch write {
                case .logAttempt(let attempt):
                    try await self.log(attempt, of: key, sql.logAttempt, connection)
                case .settleFailed(let text):
                    try await self.execute(sql.settleCancelled, [key, text, now], connection)
                case .takeFromWorker:
                    try await self.execute(sql.takeFromWorker, [key, now], connection)
                case .mark(let text):
                    try await self.execute(
                        sql.insertMark, [markKey, CommandJournalCancellation.kind, key, text, now], connection)
                }
            }
            return try await self.locked(key, connection)
        } ?? { throw CommandJournalError.unknownKey(key) }()
    }

    /// Retries `key`, in one transaction; see `CommandJournal.retry(_:)`.
    public func retry(_ key: String) async throws -> CommandJournalRecord {
        try writer.validate(.retry(key))
        return try await action { connection, sql, now -> CommandJournalRecord? in
            guard let record = try await self.locked(key, connection) else { throw CommandJournalError.unknownKey(key) }
            if let ended = try CommandJournalAttempt.endedBeforeRetry(record) {
                try await self.log(ended, of: key, sql.logAttemptIfNew, connection)
            }
            try await self.execute(sql.retry, [key, now], connection)
            try await self.execute(sql.deleteChildren, [key], connection)
            return try await self.locked(key, connection)
        } ?? { throw CommandJournalError.unknownKey(key) }()
    }

    /// Deletes settled records with their steps and logged attempts, by status and queue, at
    /// most `limit` roots, in one statement; see
    /// `CommandJournal.prune(settledBefore:statuses:queue:limit:)`.
    public func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int {
        let sql = management.prune
        let milliseconds = date.journalMilliseconds.clampedForJournal
        let settled = statuses.filter { $0 != .pending }.map(\.rawValue).sorted()
        if !statuses.isEmpty, settled.isEmpty { return 0 }
        let count = try await connections.withConnection(writes: true) { connection async throws -> Int64 in
            try await self.rows(
                sql, [milliseconds, settled, queue, limit.map { Int64(max(1, $0)) }], connection
            ).first?.decode(Int64.self) ?? 0
        }
        return Int(clamping: count)
    }

    /// Runs `body` in a transaction of its own with the time now (the journal's clock, or the
    /// server's); a `CommandJournalError` it throws rolls it back and is thrown as it is.
    func action(
        _ body:
            @escaping @Sendable (PostgresConnection, PostgresJournalManagementSQL, Int64) async throws
            -> CommandJournalRecord?
    ) async throws -> CommandJournalRecord? {
        let sql = management
        let clock = writer.clock
        try connections.enter()
        defer { connections.leave() }
        let outcome: Result<CommandJournalRecord?, CommandJournalError> = try await connections.inResolvedTransaction {
            connection in
            let now =
                try await self.rows(
                    PostgresJournalManagementSQL.now,
                    [clock.map { $0.currentDate.journalMilliseconds.clampedForJournal }],
                    connection
                ).first?.decode(Int64.self) ?? 0
            do {
                return .success(try await body(connection, sql, now))
            } catch let refusal as CommandJournalError {
                // Nothing was written before a refusal; the empty transaction commits.
                return .failure(refusal)
            }
        }
        return try outcome.get()
    }

    /// `text` as PostgreSQL stores it: its U+0000 characters, which `text` cannot hold, as `\0`.
    static func storable(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\\0") : text
    }

    /// The record `key`, locked until the transaction ends.
    func locked(_ key: String, _ connection: PostgresConnection) async throws -> CommandJournalRecord? {
        guard let row = try await rows(management.lockedRecord, [key], connection).first else { return nil }
        return try PostgresJournalRow(row, writer.names).record(at: 0)
    }

    func log(
        _ attempt: CommandJournalAttempt, of key: String, _ sql: String, _ connection: PostgresConnection
    ) async throws {
        try await execute(
            sql,
            [key, Int64(attempt.number), attempt.owner, attempt.error, attempt.endedAt?.journalMilliseconds ?? 0],
            connection)
    }

    func execute(
        _ sql: String, _ values: [(any PostgresEncodable & Sendable)?], _ connection: PostgresConnection
    )
        async throws
    {
        _ = try await rows(sql, values, connection)
    }

    func rows(
        _ sql: String, _ values: [(any PostgresEncodable & Sendable)?], _ connection: PostgresConnection
    ) async throws -> [PostgresRow] {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if let value { try bindings.append(value) } else { bindings.appendNull() }
        }
        // A named prepared statement: each connection parses and plans it once (its SQL casts
        // every parameter, so the server needs no types from the first call's values).
        return try await connection.run(PreparedJournalStatement.Text(sql), bindings, logger: connections.logger)
    }
}

extension Int64 {
    /// `self` plus `milliseconds`, kept within the journal's range.
    func adding(_ milliseconds: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(milliseconds.clampedForJournal)
        return overflow ? (milliseconds < 0 ? Int64.min : Int64.max).clampedForJournal : sum.clampedForJournal
    }
}
