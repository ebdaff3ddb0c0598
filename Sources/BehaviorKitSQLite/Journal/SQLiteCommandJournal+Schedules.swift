public import Commands
public import Foundation
import GRDB

/// The schedules of a SQLite journal, in its table `commandSchedule`.
extension SQLiteCommandJournal {
    /// Adds or replaces `schedule`; see `CommandJournal.saveSchedule(_:)`.
    public func saveSchedule(_ schedule: QueueSchedule) async throws -> CommandJournalSchedule {
        let definition = try CommandJournalSchedule.encode(schedule)
        let now = self.now
        let revision = try await scheduleWrite { db in
            try CommandJournalSchema.saveSchedule(schedule.name, definition: definition, now: now, db)
        }
        return CommandJournalSchedule(
            schedule: schedule, revision: revision, savedAt: Date(journalMilliseconds: now), lastTick: nil)
    }

    /// Removes the schedule `name`; see `CommandJournal.removeSchedule(named:)`.
    public func removeSchedule(named name: String) async throws -> Bool {
        guard StoredKey.isStorable(name) else { return false }
        return try await scheduleWrite { db in try CommandJournalSchema.removeSchedule(name, db) }
    }

    /// The schedules, by name; see `CommandJournal.schedules()`.
    public func schedules() async throws -> [CommandJournalSchedule] {
        do {
            return try await database.read { db in try CommandJournalSchema.schedules(db) }
        } catch let error as DatabaseError {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
    }

    /// Moves a schedule's last tick, compare and set; see
    /// `CommandJournal.advanceSchedule(named:revision:from:to:)`.
    public func advanceSchedule(
        named name: String, revision: Int64, from lastTick: Date?, to tick: Date
    ) async throws -> Bool {
        guard StoredKey.isStorable(name) else { return false }
        return try await scheduleWrite { db in
            try CommandJournalSchema.advanceSchedule(
                name, revision: revision, from: lastTick?.journalMilliseconds, to: tick.journalMilliseconds, db)
        }
    }

    private func scheduleWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.write(body)
        } catch let error as DatabaseError {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
    }
}
