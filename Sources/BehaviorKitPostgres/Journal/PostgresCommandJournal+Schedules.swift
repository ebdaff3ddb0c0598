public import Commands
public import Foundation
import PostgresNIO

/// Schedules on PostgreSQL: one row per schedule in `<table>_schedules`, its definition as JSON
/// text, each change one statement (an upsert, a delete, a compare-and-set update) in a
/// transaction whose outcome is resolved, on the journal's clock or the server's.
extension PostgresCommandJournal {
    /// Adds or replaces `schedule`; see `CommandJournal.saveSchedule(_:)`.
    public func saveSchedule(_ schedule: QueueSchedule) async throws -> CommandJournalSchedule {
        let definition = String(decoding: try CommandJournalSchedule.encode(schedule), as: UTF8.self)
        let sql = """
            INSERT INTO \(schedulesTable) AS s (name, definition, revision, saved_at, last_tick)
            VALUES ($1::text, $2::text, 1, COALESCE($3::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint), NULL)
            ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, revision = s.revision + 1,
                saved_at = excluded.saved_at, last_tick = NULL
            RETURNING revision, saved_at
            """
        let now = writer.clock.map { $0.currentDate.journalMilliseconds.clampedForJournal }
        let values: [(any PostgresEncodable & Sendable)?] = [schedule.name, definition, now]
        let row = try await scheduleWrite { connection in
            try await self.rows(sql, values, connection).first?.decode((Int64, Int64).self)
        }
        let (revision, savedAt) = row ?? (1, now ?? 0)
        return CommandJournalSchedule(
            schedule: schedule, revision: revision, savedAt: Date(journalMilliseconds: savedAt), lastTick: nil)
    }

    /// Removes the schedule `name`; see `CommandJournal.removeSchedule(named:)`.
    public func removeSchedule(named name: String) async throws -> Bool {
        guard StoredKey.isStorable(name) else { return false }
        let sql = "DELETE FROM \(schedulesTable) WHERE name = $1::text RETURNING 1"
        return try await scheduleWrite { connection in
            try await !self.rows(sql, [name], connection).isEmpty
        }
    }

    /// The schedules, by name; see `CommandJournal.schedules()`.
    public func schedules() async throws -> [CommandJournalSchedule] {
        let sql =
            "SELECT name, definition, revision, saved_at, last_tick FROM \(schedulesTable) ORDER BY name COLLATE \"C\""
        let rows = try await connections.withConnection { connection in
            try await self.rows(sql, [], connection).map {
                try $0.decode((String, String, Int64, Int64, Int64?).self)
            }
        }
        return try rows.map { row in
            CommandJournalSchedule(
                schedule: try CommandJournalSchedule.decode(Array(row.1.utf8)), revision: row.2,
                savedAt: Date(journalMilliseconds: row.3), lastTick: row.4.map(Date.init(journalMilliseconds:)))
        }
    }

    /// Moves a schedule's last tick, compare and set; see
    /// `CommandJournal.advanceSchedule(named:revision:from:to:)`.
    public func advanceSchedule(
        named name: String, revision: Int64, from lastTick: Date?, to tick: Date
    ) async throws -> Bool {
        guard StoredKey.isStorable(name) else { return false }
        let sql = """
            UPDATE \(schedulesTable) SET last_tick = $1::bigint
            WHERE name = $2::text AND revision = $3::bigint AND last_tick IS NOT DISTINCT FROM $4::bigint
            RETURNING 1
            """
        let values: [(any PostgresEncodable & Sendable)?] = [
            tick.journalMilliseconds, name, revision, lastTick?.journalMilliseconds,
        ]
        return try await scheduleWrite { connection in
            try await !self.rows(sql, values, connection).isEmpty
        }
    }

    /// Runs the write `body` as one request, its outcome resolved when the connection is lost
    /// while it commits (as the journal's other writes).
    private func scheduleWrite<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try connections.enter()
        defer { connections.leave() }
        return try await connections.withConnectionPastTheGate(body)
    }

    private var schedulesTable: String { "\"\(PostgresJournalManagementSQL.schedulesTable(table))\"" }
}
