import Commands
import GRDB

/// How long each queued record waited to be picked up (``QueueActivity``): a column added to
/// the table of layout 2 by a migration of its own, set by the claim that takes a record from
/// its queue (not by a takeover), `NULL` for the records claimed before it. An application's
/// database whose migrator has not added it yet claims as before, and keeps no pickup.
extension CommandJournalSchema {
    /// Whether the table has the column (GRDB keeps the answer until the schema changes).
    static func keepsPickups(_ db: Database) throws -> Bool {
        try db.columns(in: "commandRecord").contains { $0.name == "pickupMilliseconds" }
    }

    /// The claim's assignment of the column: how long a record taken from its queue (no owner:
    /// its `leaseExpiresAt` is when it fell due) waited until `?`; a takeover keeps the first's.
    static let pickupAssignment = """
        , pickupMilliseconds = CASE WHEN owner IS NULL THEN max(0, ? - leaseExpiresAt) ELSE pickupMilliseconds END
        """

    /// The root records of each queue settled per minute since `?`, done and not, and their
    /// pickups when the table keeps them.
    static func settledPerMinute(_ db: Database) throws -> String {
        let pickups =
            try keepsPickups(db)
            ? "COUNT(pickupMilliseconds), SUM(pickupMilliseconds), MAX(pickupMilliseconds)" : "0, 0, 0"
        return """
            SELECT queue, updatedAt / 60000 * 60000 AS minute, SUM(status = 'done') AS done,
                SUM(status <> 'done') AS failed, 0 AS retried, \(pickups)
            FROM commandRecord
            WHERE parentKey IS NULL AND queue IS NOT NULL AND status <> 'pending' AND updatedAt >= ?
            GROUP BY queue, minute
            """
    }

    /// Adds the `pickupMilliseconds` column, unless the table has it.
    static func addPickups(_ db: Database) throws {
        guard try !columns(db).contains("pickupMilliseconds") else { return }
        try db.execute(sql: "ALTER TABLE commandRecord ADD COLUMN pickupMilliseconds INTEGER")
    }
}
