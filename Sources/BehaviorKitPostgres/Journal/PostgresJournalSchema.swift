import Logging
import PostgresNIO

/// Creates a journal's table, its batch function and its enqueue function
/// (``PostgresJournalEnqueueFunction``), or checks the table there: in one
/// transaction under an advisory lock on the table's name, so that processes starting
/// together create it once and never see it half made. A table of that name with other columns, or no unique key, is refused
/// and left as it is.
enum PostgresJournalSchema {
    /// The columns and their types, as `format_type` spells them (``PostgresJournalColumn``).
    static let columns: [(name: String, type: String)] = PostgresJournalColumn.allCases.map { ($0.name, $0.type) }

    /// The table, its columns as ``PostgresJournalColumn`` defines them, and its one index on
    /// `key`: the unique constraint, named `<table>_key_c` as the management's index in byte order
    /// (``PostgresJournalManagementSQL/create(_:)``), which it is (the column is `COLLATE "C"`):
    /// one index entry per row version, not two.
    ///
    /// A table made by an earlier release keeps its keys in the database's collation and two
    /// indexes on `key`: `<table>_key_key` (its unique constraint, which lookups by key use) and
    /// `<table>_key_c` (listings by prefix). Both are needed while the columns are as they are;
    /// to have one, in a maintenance window (it rewrites the table under an exclusive lock):
    /// `ALTER TABLE "<table>" ALTER COLUMN key TYPE text COLLATE "C", ALTER COLUMN parent_key
    /// TYPE text COLLATE "C"`, the same for `key` in `<table>_attempts` and `<table>_traces`, then
    /// `DROP INDEX "<table>_key_c"; ALTER INDEX "<table>_key_key" RENAME TO "<table>_key_c"`.
    static func createTable(_ table: String) -> String {
        let columns =
            PostgresJournalColumn.allCases.map { "    \($0.definition)" }
            + ["    CONSTRAINT \"\(table)_key_c\" UNIQUE (key)"]
        return "CREATE TABLE IF NOT EXISTS \"\(table)\" (\n\(columns.joined(separator: ",\n"))\n)"
    }

    /// Claims walk `open_priority`; the next due time and a queue's running count read
    /// `open_due`; a transaction's steps are read by `parent`; unfinished records by the
    /// management's `status` index (``PostgresJournalManagementSQL``).
    ///
    /// Every index costs each enqueue, claim and settlement an entry (a claim or a settlement
    /// changes indexed columns, so PostgreSQL writes a new entry in each), so a new table gets
    /// only these. Tables made by earlier releases keep two more, which nothing of this version
    /// reads: `<table>_open_order` (the claims of batch functions before v5, kept for their
    /// processes during a rolling deploy; a process of such a version makes it again when it
    /// opens a table without it) and `<table>_pending` (what `status` serves). Once no process of
    /// an earlier version runs, `DROP INDEX CONCURRENTLY` them to make every write cheaper.
    static func createIndexes(_ table: String) -> [(name: String, sql: String)] {
        let open = "WHERE status = 'pending' AND parent_key IS NULL"
        return [
            ("\(table)_open_priority", "(queue, priority DESC, sequence) \(open)"),
            ("\(table)_open_due", "(queue, lease_expires_at) \(open)"),
            ("\(table)_open_partition", "(queue, partition_key) \(open) AND partition_key IS NOT NULL"),
            ("\(table)_parent", "(parent_key, sequence) WHERE parent_key IS NOT NULL"),
        ].map { name, definition in
            (name, "CREATE INDEX IF NOT EXISTS \"\(name)\" ON \"\(table)\" \(definition)")
        }
    }

    /// Whether `lookup` (`to_regclass` or `to_regprocedure`) finds `name`.
    static func exists(
        _ lookup: String, _ name: String, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Bool {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(name)
        let query = PostgresQuery(unsafeSQL: "SELECT \(lookup)($1::text) IS NOT NULL", binds: bindings)
        return try await connection.rowsWhileOpen(query, logger: logger).first?.decode(Bool.self) ?? false
    }

    /// Creates the table and its indexes when missing; checks them when present.
    ///
    /// - Throws: `.notAJournal` naming what differs; the server's refusal otherwise.
    static func prepare(
        _ table: String, on connection: PostgresConnection, names: PostgresJournalNames, logger: Logger
    ) async throws {
        try await underSchemaLock(table, on: connection, logger: logger) {
            let found = try await existingColumns(table, on: connection, logger: logger)
            if let found {
                try check(found, names: names)
                guard try await hasUniqueKey(table, on: connection, logger: logger) else {
                    throw names.error(.notAJournal, "it has no unique index on its key column")
                }
                for column in addedColumns where found.columns[column.name] == nil {
                    try await connection.rowsWhileOpen(
                        PostgresQuery(unsafeSQL: "ALTER TABLE \"\(table)\" ADD COLUMN \(column.definition)"),
                        logger: logger)
                }
            } else {
                try await connection.rowsWhileOpen(PostgresQuery(unsafeSQL: createTable(table)), logger: logger)
            }
            // The records' partitions (with the batch function v6): beside the columns every
            // statement reads, as only enqueues and claims under a limit per partition use it.
            // How long each record waited to be picked up (with the batch function v10), beside them
            // too: only claims and the activity per minute read it.
            // A begin's token (with the batch function v13), which only a begin run again reads.
            for (name, column) in [
                ("partition_key", partitionColumn), ("pickup_ms", pickupColumn), ("begin_token", beginTokenColumn),
            ]
            where found?.columns[name] == nil {
                try await connection.rowsWhileOpen(
                    PostgresQuery(unsafeSQL: "ALTER TABLE \"\(table)\" ADD COLUMN \(column)"), logger: logger)
            }
            // Only what is missing: a worker whose role does not own the table or the function
            // opens a journal another role made.
            for index in createIndexes(table)
            where try await !exists("to_regclass", "\"\(index.name)\"", connection, logger) {
                try await connection.rowsWhileOpen(PostgresQuery(unsafeSQL: index.sql), logger: logger)
            }
            var managementIsMissing = false
            for relation in PostgresJournalManagementSQL.relations(table)
            where try await !exists("to_regclass", relation, connection, logger) {
                managementIsMissing = true
            }
            if managementIsMissing {
                for sql in PostgresJournalManagementSQL.create(table) {
                    try await connection.rowsWhileOpen(PostgresQuery(unsafeSQL: sql), logger: logger)
                }
            }
            // The current version of the batch function; a database that has only an earlier one
            // (a table made by an earlier release) gets it beside them.
            let function = "\"\(PostgresJournalBatchFunction.name(table))\"(\(PostgresJournalBatchParameter.signature))"
            if try await !exists("to_regprocedure", function, connection, logger) {
                try await connection.rowsWhileOpen(
                    PostgresQuery(unsafeSQL: PostgresJournalBatchFunction.create(table)), logger: logger)
            }
            // The enqueue for other languages, on the current batch function.
            try await PostgresJournalEnqueueFunction.prepare(table, on: connection, logger: logger)
            // The NOTIFY that wakes other processes' workers.
            try await PostgresQueueNotifications.prepare(table, on: connection, logger: logger)
        }
    }

    /// Runs `body` in one transaction under the advisory lock on `name` that every process
    /// preparing a journal's table or a machine store's tables takes, so that processes starting
    /// together create them once and never see them half made; rolls back when `body` throws.
    static func underSchemaLock(
        _ name: String, on connection: PostgresConnection, logger: Logger, _ body: () async throws -> Void
    ) async throws {
        try await connection.runWhileOpen("BEGIN", logger: logger)
        do {
            try await connection.rowsWhileOpen(
                "SELECT pg_advisory_xact_lock(hashtext('behaviorkit.schema'), hashtext(\(name)))", logger: logger)
            try await body()
            try await connection.runWhileOpen("COMMIT", logger: logger)
        } catch {
            await connection.rollBack(logger: logger)
            throw error
        }
    }

    /// The columns of the relation `table` resolves to, or `nil` when there is none.
    static func existingColumns(
        _ table: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> (kind: String, columns: [String: String])? {
        let quoted = "\"\(table)\""
        let rows = try await connection.rowsWhileOpen(
            """
            SELECT c.relkind::text, a.attname::text, format_type(a.atttypid, a.atttypmod)
            FROM pg_class AS c
            LEFT JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE c.oid = to_regclass(\(quoted))
            """, logger: logger
        )
        guard !rows.isEmpty else { return nil }
        var kind = ""
        var columns: [String: String] = [:]
        for row in rows {
            let (relkind, name, type) = try row.decode((String, String?, String?).self)
            kind = relkind
            if let name, let type { columns[name] = type }
        }
        return (kind, columns)
    }

    /// The migrations of the table, in order: the columns added since its first layout, each
    /// added (with its default, so without rewriting the table) to a table that lacks it. A table
    /// may lack them; the processes of an earlier version go on writing it (the column's default
    /// fills what they do not write).
    /// - `priority` (with the batch function v5): a queued record's priority, `0` for the records
    ///   there before.
    static let addedColumns: [PostgresJournalColumn] = [.priority]

    /// The partition of a queued record (``CommandQueue/concurrencyPerPartition``), `NULL` when it has
    /// none: a column no read returns, added to every table (the processes of earlier versions
    /// leave it `NULL`).
    static let partitionColumn = "partition_key text"

    /// How long a queued record waited from falling due to the claim that took it from its
    /// queue, in milliseconds (``QueueActivity``), `NULL` until then: a column no record read
    /// returns, added to every table (the processes of earlier versions leave it `NULL`).
    static let pickupColumn = "pickup_ms bigint"

    /// The token of the begin that took a record last (``PostgresJournalBatchFunction``, v13): the
    /// begin's own, or its negation when the record was there before it (`resumed`), so that the
    /// begin run again after its answer was lost answers as it did; `NULL` for the records of
    /// earlier versions, which every begin of theirs answers as before.
    static let beginTokenColumn = "begin_token bigint"

    /// Throws `.notAJournal` unless `found` is a table with the journal's columns (less the
    /// ``addedColumns`` it may lack: opening adds them; columns of a later release beside them are
    /// no problem): ``PostgresTableCheck``.
    static func check(
        _ found: (kind: String, columns: [String: String]), names: PostgresJournalNames
    ) throws(PostgresStoreError) {
        let problems = PostgresTableCheck.problems(
            kind: found.kind, columns: found.columns, expected: columns, addable: Set(addedColumns.map(\.name)))
        guard problems.isEmpty else { throw names.error(.notAJournal, problems.joined(separator: "; ")) }
    }

    static func hasUniqueKey(_ table: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let quoted = "\"\(table)\""
        let rows = try await connection.rowsWhileOpen(
            """
            SELECT 1 FROM pg_index AS i
            JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indrelid = to_regclass(\(quoted)) AND i.indisunique AND i.indnatts = 1 AND a.attname = 'key'
                AND i.indpred IS NULL
            """, logger: logger
        )
        return !rows.isEmpty
    }
}
