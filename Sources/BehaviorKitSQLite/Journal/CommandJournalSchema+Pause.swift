import Commands
import GRDB

/// The paused queues (``CommandJournalManagement/pause(queue:)``): one row per queue paused, written by
/// the pause's transaction and deleted by the resume's; a claim from a queue reads it in its own
/// write transaction, so that no claim that begins after a pause committed takes anything.
extension CommandJournalSchema {
    static let pausedQueuesTable = "commandQueuePause"

    static let createPausedQueues = """
        CREATE TABLE IF NOT EXISTS commandQueuePause (
            queue TEXT PRIMARY KEY NOT NULL,
            pausedAt INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// Pauses (`paused`) or resumes `queue`.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` in an application's database
    ///   whose migrator has not added the table (``SQLiteCommandJournal/registerMigrations(in:)``).
    static func pause(_ queue: String, paused: Bool, now: Int64, _ db: Database) throws {
        guard try db.tableExists(pausedQueuesTable) else {
            throw CommandJournalError.unsupported(
                operation:
                    "pausing a queue: the database has no table of paused queues (run the migration "
                    + "\"behaviorkit-command-journal-pauses\" of SQLiteCommandJournal.registerMigrations(in:))")
        }
        if paused {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO commandQueuePause (queue, pausedAt) VALUES (?, ?)")
                .execute(arguments: [queue, now])
        } else {
            try db.cachedStatement(sql: "DELETE FROM commandQueuePause WHERE queue = ?").execute(arguments: [queue])
        }
    }

    /// Whether `queue` is paused; never, in a database without the table.
    static func isPaused(_ queue: String?, _ db: Database) throws -> Bool {
        guard let queue, try db.tableExists(pausedQueuesTable) else { return false }
        return try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM commandQueuePause WHERE queue = ?)"),
            arguments: [queue]) ?? false
    }

    /// The paused queues; none in a database without the table.
    static func pausedQueues(_ db: Database) throws -> Set<String> {
        guard try db.tableExists(pausedQueuesTable) else { return [] }
        return Set(try String.fetchAll(db.cachedStatement(sql: "SELECT queue FROM commandQueuePause")))
    }
}
