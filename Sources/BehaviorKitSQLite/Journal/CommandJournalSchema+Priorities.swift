import Commands
import GRDB

/// A queued record's priority (``CommandJournalRecord/priority``): a column added to the table
/// of layout 2 by a migration of its own, `0` for the records written before it, and the index
/// a claim walks: a queue's open roots by priority (the highest first), then sequence.
extension CommandJournalSchema {
    /// The columns added to layout 2 since, each by its migration: a table with or without them
    /// is still layout 2.
    static let laterColumns: Set<String> = ["priority", "partitionKey", "pickupMilliseconds"]

    /// Whether `columns` are those of layout 2, with or without the ``laterColumns``.
    static func isLayout2(_ columns: Set<String>) -> Bool {
        columns.subtracting(laterColumns) == layout2Columns
    }

    /// The index of claims: a queue's open roots, the highest priority first, then the oldest.
    static let createPriorityIndex = """
        CREATE INDEX IF NOT EXISTS commandRecordClaim ON commandRecord(queue, priority DESC, sequence)
            WHERE status = 'pending' AND parentKey IS NULL
        """

    /// Adds the `priority` column (every record there reads the default) and the index of
    /// claims, unless the table has them.
    static func addPriorities(_ db: Database) throws {
        if try !columns(db).contains("priority") {
            try db.execute(
                sql:
                    "ALTER TABLE commandRecord ADD COLUMN priority INTEGER NOT NULL DEFAULT \(CommandQueue.defaultPriority)"
            )
        }
        try db.execute(sql: createPriorityIndex)
    }

    /// The priority in `row`: the default when the column is missing (a file read before its
    /// migration) or holds no integer.
    static func priority(_ row: Row) -> Int {
        (row["priority"] as DatabaseValue?).flatMap(Int.fromDatabaseValue) ?? CommandQueue.defaultPriority
    }
}
