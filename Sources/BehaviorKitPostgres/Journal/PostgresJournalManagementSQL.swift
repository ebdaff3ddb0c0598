/// The SQL of a ``PostgresCommandJournal``'s management API, apart from the batch function: the
/// log of attempts (a table of its own beside the journal's, `<table>_attempts`), the index
/// that lists records by status, the reads, and the statements of the actions, which run in a
/// transaction of their own (`SELECT … FOR UPDATE` on the root, so that they serialize with
/// the batch function's writes, which lock it `FOR SHARE`).
struct PostgresJournalManagementSQL: Sendable {
    /// The journal's table, quoted.
    let table: String
    /// The log of attempts, quoted.
    let attempts: String
    /// The queued records' trace contexts, quoted.
    let traces: String

    init(table: String) {
        self.table = "\"\(table)\""
        self.attempts = "\"\(Self.attemptsTable(table))\""
        self.traces = "\"\(Self.tracesTable(table))\""
    }

    /// The name of the log of attempts of `table`.
    static func attemptsTable(_ table: String) -> String { "\(table)_attempts" }

    /// The name of the table of queued records' trace contexts of `table`.
    static func tracesTable(_ table: String) -> String { "\(table)_traces" }

    /// The name of the table of paused queues of `table`.
    static func pausedTable(_ table: String) -> String { "\(table)_paused" }

    /// The name of the table of schedules of `table`.
    static func schedulesTable(_ table: String) -> String { "\(table)_schedules" }

    /// The name of the table of rate limits of `table` (one row per queue and scope).
    static func rateLimitsTable(_ table: String) -> String { "\(table)_rate_limits" }

    /// The name of the table of rate limits' buckets of `table` (one row per queue, scope and
    /// partition, `''` for the queue's own).
    static func rateBucketsTable(_ table: String) -> String { "\(table)_rate_buckets" }

    /// The names of what ``create(_:)`` makes, quoted: opening creates them when one is missing.
    static func relations(_ table: String) -> [String] {
        [
            attemptsTable(table), "\(table)_status", "\(table)_queue", "\(table)_key_c", tracesTable(table),
            pausedTable(table), schedulesTable(table), rateLimitsTable(table), rateBucketsTable(table),
        ].map {
            "\"\($0)\""
        }
    }

    /// The log of attempts and the indexes that list records by status, by queue and by key
    /// prefix (in byte order, `COLLATE "C"`, whatever the database's collation), created when
    /// missing. In a new journal's table the index by key prefix is its unique constraint
    /// (``PostgresJournalSchema/createTable(_:)``), and the key columns of the log of attempts and
    /// of the trace contexts are in byte order too, as the journal's keys they are compared with.
    static func create(_ table: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS "\(attemptsTable(table))" (
                key text \(PostgresJournalColumn.keyCollation) NOT NULL,
                attempt bigint NOT NULL,
                owner text,
                error text,
                ended_at bigint NOT NULL,
                PRIMARY KEY (key, attempt)
            )
            """,
            "CREATE INDEX IF NOT EXISTS \"\(table)_status\" ON \"\(table)\" (status, sequence)",
            "CREATE INDEX IF NOT EXISTS \"\(table)_queue\" ON \"\(table)\" (queue, sequence) WHERE queue IS NOT NULL",
            "CREATE INDEX IF NOT EXISTS \"\(table)_key_c\" ON \"\(table)\" (key COLLATE \"C\")",
            """
            CREATE TABLE IF NOT EXISTS "\(tracesTable(table))" (
                key text \(PostgresJournalColumn.keyCollation) PRIMARY KEY,
                context jsonb NOT NULL
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS "\(pausedTable(table))" (
                queue text PRIMARY KEY,
                paused_at bigint NOT NULL
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS "\(schedulesTable(table))" (
                name text PRIMARY KEY,
                definition text NOT NULL,
                revision bigint NOT NULL,
                saved_at bigint NOT NULL,
                last_tick bigint
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS "\(rateLimitsTable(table))" (
                queue text NOT NULL,
                scope text NOT NULL,
                starts bigint NOT NULL,
                interval_ms bigint NOT NULL,
                burst bigint NOT NULL,
                PRIMARY KEY (queue, scope)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS "\(rateBucketsTable(table))" (
                queue text NOT NULL,
                scope text NOT NULL,
                partition_key text NOT NULL,
                credit bigint NOT NULL,
                written_at bigint NOT NULL,
                PRIMARY KEY (queue, scope, partition_key)
            )
            """,
        ]
    }

    /// `$1` the time now or NULL: the time of the action.
    static let now = "SELECT COALESCE($1::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)"

    /// The record `$1`, locked for the action's transaction.
    var lockedRecord: String {
        "SELECT \(PostgresJournalSQL.columns) FROM \(table) WHERE key = $1::text FOR UPDATE"
    }

    /// Who holds the root `$1`, locked against a claim until the transaction ends.
    var holder: String { "SELECT owner, status, parent_key, attempts FROM \(table) WHERE key = $1::text FOR SHARE" }

    /// Whether `$1` has children.
    var hasChildren: String { "SELECT EXISTS (SELECT 1 FROM \(table) WHERE parent_key = $1::text)" }

    /// Logs an attempt: `$1` key, `$2` attempt, `$3` owner, `$4` error, `$5` when it ended;
    /// replaces what was logged for it.
    var logAttempt: String {
        """
        INSERT INTO \(attempts) (key, attempt, owner, error, ended_at) VALUES ($1::text, $2::bigint, $3::text, $4::text, $5::bigint)
        ON CONFLICT (key, attempt) DO UPDATE SET owner = excluded.owner, error = excluded.error, ended_at = excluded.ended_at
        """
    }

    /// Logs an attempt unless one is logged for its number.
    var logAttemptIfNew: String {
        """
        INSERT INTO \(attempts) (key, attempt, owner, error, ended_at) VALUES ($1::text, $2::bigint, $3::text, $4::text, $5::bigint)
        ON CONFLICT (key, attempt) DO NOTHING
        """
    }

    /// The attempts logged for `$1`.
    var loggedAttempts: String {
        "SELECT attempt, owner, error, ended_at FROM \(attempts) WHERE key = $1::text ORDER BY attempt"
    }

    /// Releases `$1` due at `$2`, at `$3` now.
    var release: String {
        "UPDATE \(table) SET owner = NULL, lease_expires_at = $2::bigint, updated_at = $3::bigint WHERE key = $1::text"
    }

    /// Settles `$1` failed for `$2` at `$3`, out of any worker's hands (no owner, no lease).
    var settleCancelled: String {
        """
        UPDATE \(table) SET status = 'failed', failure_reason = $2::text, owner = NULL, lease_expires_at = NULL,
            updated_at = $3::bigint
        WHERE key = $1::text
        """
    }

    /// Takes `$1` from its worker (a new token when one holds it), due at `$2`.
    var takeFromWorker: String {
        """
        UPDATE \(table) SET attempts = attempts + (CASE WHEN owner IS NULL THEN 0 ELSE 1 END), owner = NULL,
            lease_expires_at = $2::bigint, updated_at = $2::bigint
        WHERE key = $1::text
        """
    }

    /// Writes the cancellation mark `$1` (kind `$2`) under `$3`, failed for `$4`, at `$5`.
    var insertMark: String {
        """
        INSERT INTO \(table) (key, kind, payload, parent_key, status, failure_reason, attempts, created_at, updated_at)
        VALUES ($1::text, $2::text, ''::bytea, $3::text, 'failed', $4::text, 0, $5::bigint, $5::bigint)
        """
    }

    /// Makes `$1` pending and due at `$2`.
    var retry: String {
        """
        UPDATE \(table) SET status = 'pending', failure_reason = NULL, owner = NULL, lease_expires_at = $2::bigint,
            updated_at = $2::bigint
        WHERE key = $1::text
        """
    }

    /// Makes `$1` due at `$2` when it is a pending root on a queue that no worker holds, due
    /// later; the queue's trigger sends its `NOTIFY`. Answers the row's queue when it did.
    var wake: String {
        """
        UPDATE \(table) SET lease_expires_at = $2::bigint, updated_at = $2::bigint
        WHERE key = $1::text AND status = 'pending' AND parent_key IS NULL AND queue IS NOT NULL AND owner IS NULL
            AND lease_expires_at > $2::bigint
        RETURNING queue
        """
    }

    /// Deletes the children of `$1`, and the attempts logged for them.
    var deleteChildren: String {
        """
        WITH logged AS (
            DELETE FROM \(attempts) WHERE key IN (SELECT key FROM \(table) WHERE parent_key = $1::text) RETURNING 1
        )
        DELETE FROM \(table) WHERE parent_key = $1::text
        """
    }

    /// Deletes the roots settled before `$1`, their children, their attempts and their trace
    /// contexts (every data-modifying `WITH` runs, read or not); returns how many records went.
    var prune: String {
        """
        WITH roots AS (
            SELECT r.key FROM \(table) r
            WHERE r.parent_key IS NULL AND r.status <> 'pending' AND r.updated_at < $1::bigint
                AND (cardinality($2::text[]) = 0 OR r.status = ANY($2::text[]))
                AND ($3::text IS NULL OR r.queue = $3::text)
                AND NOT EXISTS (SELECT 1 FROM \(table) c WHERE c.parent_key = r.key AND c.status = 'pending')
            ORDER BY r.updated_at, r.sequence LIMIT $4::bigint
            FOR UPDATE OF r SKIP LOCKED
        ), logged AS (
            DELETE FROM \(attempts)
            WHERE key IN (SELECT key FROM roots)
                OR key IN (SELECT key FROM \(table) WHERE parent_key IN (SELECT key FROM roots))
            RETURNING 1
        ), traced AS (
            DELETE FROM \(traces) WHERE key IN (SELECT key FROM roots)
            RETURNING 1
        ), children AS (
            DELETE FROM \(table) WHERE parent_key IN (SELECT key FROM roots) RETURNING 1
        ), gone AS (
            DELETE FROM \(table) WHERE key IN (SELECT key FROM roots) RETURNING 1
        )
        SELECT (SELECT count(*) FROM children) + (SELECT count(*) FROM gone)
        """
    }

    /// The pending roots workers hold, in sequence order.
    var held: String {
        """
        SELECT \(PostgresJournalSQL.columns) FROM \(table)
        WHERE status = 'pending' AND parent_key IS NULL AND owner IS NOT NULL ORDER BY sequence
        """
    }

    /// Each queue's depth at `$1` (or the server's time), from the index of open records.
    var queues: String {
        """
        WITH now AS (SELECT COALESCE($1::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint) AS ms)
        SELECT queue,
            count(*) FILTER (WHERE owner IS NULL AND lease_expires_at <= now.ms),
            count(*) FILTER (WHERE owner IS NULL AND lease_expires_at > now.ms),
            count(*) FILTER (WHERE owner IS NOT NULL AND lease_expires_at > now.ms),
            count(*) FILTER (WHERE owner IS NOT NULL AND lease_expires_at <= now.ms),
            min(lease_expires_at) FILTER (WHERE owner IS NULL)
        FROM \(table), now
        WHERE status = 'pending' AND parent_key IS NULL
        GROUP BY queue ORDER BY queue NULLS FIRST
        """
    }
}
