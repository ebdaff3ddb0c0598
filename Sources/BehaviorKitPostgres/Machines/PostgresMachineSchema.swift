import Logging
import PostgresNIO

/// The tables of a ``PostgresMachineStore`` (names `<prefix>_instance`, `_state`, `_step`,
/// `_timer`, `_effect`), their indexes and the commit function: created when missing, or checked,
/// in one transaction under an advisory lock on the prefix, so that processes opening one
/// database together create them once and never see them half made (the journal's pattern). A
/// table of one of those names with other columns is refused and left as it is.
///
/// Times are milliseconds since 1970 (`bigint`), as the journal keeps them. Names, keys, states
/// and ids are `text COLLATE "C"`: ordered by their bytes, as Swift orders them, whatever the
/// database's collation.
enum PostgresMachineSchema {
    /// A table: its suffix, its columns as `format_type` spells them, and its definition.
    struct Table {
        var suffix: String
        var columns: [(name: String, type: String)]
        var definition: String

        func name(_ prefix: String) -> String { "\(prefix)_\(suffix)" }
    }

    static let tables: [Table] = [
        Table(
            suffix: "instance",
            columns: [
                ("machine", "text"), ("key", "text"), ("version", "bigint"), ("snapshot", "bytea"),
                ("created_at", "bigint"), ("updated_at", "bigint"),
            ],
            definition: """
                machine text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, version bigint NOT NULL,
                snapshot bytea NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL,
                PRIMARY KEY (machine, key)
                """),
        Table(
            suffix: "state",
            columns: [
                ("machine", "text"), ("key", "text"), ("position", "integer"), ("state", "text"),
                ("entered_at", "bigint"),
            ],
            definition: """
                machine text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, position integer NOT NULL,
                state text COLLATE "C" NOT NULL, entered_at bigint NOT NULL, PRIMARY KEY (machine, key, position)
                """),
        Table(
            suffix: "step",
            columns: [
                ("machine", "text"), ("key", "text"), ("sequence", "bigint"), ("event_id", "text"), ("at", "bigint"),
                ("body", "bytea"),
            ],
            definition: """
                machine text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, sequence bigint NOT NULL,
                event_id text COLLATE "C", at bigint NOT NULL, body bytea NOT NULL,
                PRIMARY KEY (machine, key, sequence)
                """),
        Table(
            suffix: "timer",
            columns: [
                ("machine", "text"), ("key", "text"), ("id", "text"), ("due_at", "bigint"), ("body", "bytea"),
            ],
            definition: """
                machine text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
                due_at bigint NOT NULL, body bytea NOT NULL, PRIMARY KEY (machine, key, id)
                """),
        Table(
            suffix: "effect",
            columns: [
                ("machine", "text"), ("key", "text"), ("id", "text"), ("body", "bytea"), ("owner", "text"),
                ("lease_expires_at", "bigint"), ("attempts", "bigint"),
            ],
            definition: """
                machine text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
                body bytea NOT NULL, owner text, lease_expires_at bigint, attempts bigint NOT NULL DEFAULT 0,
                PRIMARY KEY (machine, key, id)
                """),
    ]

    /// The indexes beside the primary keys: keys by state (`keys(in:)`, counts), a step by its
    /// event id (at most once), timers by due time, effects by lease.
    static func indexes(_ prefix: String) -> [(name: String, sql: String)] {
        [
            ("state_entry", "", "state", "(machine, state, entered_at, key)"),
            ("step_event", "UNIQUE", "step", "(machine, key, event_id)"),
            ("timer_due", "", "timer", "(machine, due_at, key, id)"),
            ("effect_lease", "", "effect", "(machine, lease_expires_at)"),
        ].map { suffix, unique, table, columns in
            let name = "\(prefix)_\(suffix)"
            return (name, "CREATE \(unique) INDEX IF NOT EXISTS \"\(name)\" ON \"\(prefix)_\(table)\" \(columns)")
        }
    }

    /// Creates the tables, indexes and commit function when missing; checks the tables when
    /// present.
    ///
    /// - Throws: `.notAJournal` (the store's `.notAMachineStore`) naming the table and what
    ///   differs; the server's refusal otherwise.
    static func prepare(
        _ prefix: String, on connection: PostgresConnection, names: PostgresJournalNames, logger: Logger
    ) async throws {
        try await PostgresJournalSchema.underSchemaLock(prefix, on: connection, logger: logger) {
            for table in tables {
                let name = table.name(prefix)
                if let found = try await PostgresJournalSchema.existingColumns(name, on: connection, logger: logger) {
                    try check(found, table, name: name, names: names)
                } else {
                    try await connection.rowsWhileOpen(
                        PostgresQuery(unsafeSQL: "CREATE TABLE IF NOT EXISTS \"\(name)\" (\(table.definition))"),
                        logger: logger)
                }
            }
            // Only what is missing: a worker whose role does not own the tables opens a store
            // another role made.
            for index in indexes(prefix)
            where try await !PostgresJournalSchema.exists("to_regclass", "\"\(index.name)\"", connection, logger) {
                try await connection.rowsWhileOpen(PostgresQuery(unsafeSQL: index.sql), logger: logger)
            }
            let function =
                "\"\(PostgresMachineCommitFunction.name(prefix))\"(\(PostgresMachineCommitParameter.signature))"
            if try await !PostgresJournalSchema.exists("to_regprocedure", function, connection, logger) {
                try await connection.rowsWhileOpen(
                    PostgresQuery(unsafeSQL: PostgresMachineCommitFunction.create(prefix)), logger: logger)
            }
        }
    }

    /// Throws unless `found` is a table with `table`'s columns (columns of a later release beside
    /// them are no problem): ``PostgresTableCheck``.
    static func check(
        _ found: (kind: String, columns: [String: String]), _ table: Table, name: String, names: PostgresJournalNames
    ) throws(PostgresStoreError) {
        let problems = PostgresTableCheck.problems(kind: found.kind, columns: found.columns, expected: table.columns)
        guard problems.isEmpty else {
            throw names.error(.notAJournal, "table \(name): " + problems.joined(separator: "; "))
        }
    }
}
