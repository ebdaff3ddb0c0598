/// The SQL of a ``PostgresCommandJournal``'s table: one statement per write, each atomic on
/// its own (`INSERT … ON CONFLICT DO NOTHING`, `UPDATE … WHERE` the lease still holds,
/// `FOR UPDATE SKIP LOCKED` claims), so that a caller's conflict or lost lease is an answer,
/// never an error that would abort the batch's transaction.
///
/// Parameter `$1` of every write is the time now in milliseconds since 1970: the journal's
/// clock, or `NULL` for the server's (`statement_timestamp()`: one time for the whole
/// statement, so every worker judges leases by the server's clock).
struct PostgresJournalSQL: Sendable {
    /// The table's name, quoted.
    let table: String

    init(table: String) {
        self.table = "\"\(table)\""
    }

    static let now = "COALESCE($1::bigint, (extract(epoch FROM statement_timestamp()) * 1000)::bigint)"
    static let columns = """
        sequence, key, kind, payload, parent_key, status, failure_reason, output, owner, lease_expires_at, queue, \
        attempts, created_at, updated_at
        """
    static let pendingRoot = "status = 'pending' AND parent_key IS NULL"

    /// `$2` key, `$3` kind, `$4` payload, `$5` parent, `$6` owner, `$7` lease in ms. Rows:
    /// `outcome` ('started', 'resumed' or 'found'), now, then the record.
    var begin: String {
        let now = Self.now
        return """
            WITH inserted AS (
                INSERT INTO \(table) (key, kind, payload, parent_key, status, owner, lease_expires_at, attempts,
                    created_at, updated_at)
                VALUES ($2::text, $3::text, $4::bytea, $5::text, 'pending', $6::text, \(now) + $7::bigint, 1,
                    \(now), \(now))
                ON CONFLICT (key) DO NOTHING
                RETURNING \(Self.columns)
            ), resumed AS (
                UPDATE \(table) SET owner = $6::text, lease_expires_at = \(now) + $7::bigint,
                    attempts = attempts + 1, updated_at = \(now)
                WHERE key = $2::text AND NOT EXISTS (SELECT 1 FROM inserted) AND \(Self.pendingRoot)
                    AND $5::text IS NULL AND kind = $3::text AND payload = $4::bytea AND lease_expires_at <= \(now)
                RETURNING \(Self.columns)
            )
            SELECT 'started', \(now), * FROM inserted
            UNION ALL SELECT 'resumed', \(now), * FROM resumed
            UNION ALL SELECT 'found', \(now), \(Self.columns) FROM \(table)
                WHERE key = $2::text AND NOT EXISTS (SELECT 1 FROM inserted) AND NOT EXISTS (SELECT 1 FROM resumed)
            """
    }

    /// `$2` key, `$3` kind, `$4` payload, `$5` parent, `$6` owner. One row: whether the root
    /// exists, its owner, whether `$6` holds it; then 'inserted' or 'found' and the record, or
    /// NULLs.
    var append: String {
        let now = Self.now
        return """
            WITH root AS (
                SELECT owner, status, parent_key FROM \(table) WHERE key = $5::text FOR SHARE
            ), held AS (
                SELECT 1 FROM root WHERE owner = $6::text AND status = 'pending' AND parent_key IS NULL
            ), inserted AS (
                INSERT INTO \(table) (key, kind, payload, parent_key, status, attempts, created_at, updated_at)
                SELECT $2::text, $3::text, $4::bytea, $5::text, 'pending', 0, \(now), \(now)
                WHERE EXISTS (SELECT 1 FROM held)
                ON CONFLICT (key) DO NOTHING
                RETURNING \(Self.columns)
            ), child AS (
                SELECT 'inserted' AS outcome, * FROM inserted
                UNION ALL SELECT 'found', \(Self.columns) FROM \(table)
                    WHERE key = $2::text AND NOT EXISTS (SELECT 1 FROM inserted)
            )
            SELECT EXISTS (SELECT 1 FROM root), (SELECT owner FROM root), EXISTS (SELECT 1 FROM held), child.*
            FROM (SELECT 1) AS one LEFT JOIN child ON true
            """
    }

    /// `$2` key, `$3` status, `$4` output, `$5` failure reason, `$6` owner. One row (none for
    /// an unknown key): the record's parent and status, its root's key and owner, whether it
    /// was settled now.
    var settle: String {
        """
        WITH target AS (
            SELECT key, parent_key, status FROM \(table) WHERE key = $2::text FOR SHARE
        ), root AS (
            SELECT r.key, r.owner, r.status, r.parent_key FROM \(table) AS r JOIN target
                ON r.key = COALESCE(target.parent_key, target.key)
            FOR SHARE OF r
        ), settled AS (
            UPDATE \(table) AS t SET status = $3::text, output = COALESCE($4::bytea, t.output),
                failure_reason = CASE WHEN $3::text = 'done' THEN NULL ELSE COALESCE($5::text, t.failure_reason) END,
                lease_expires_at = CASE WHEN t.parent_key IS NULL THEN NULL ELSE t.lease_expires_at END,
                updated_at = \(Self.now)
            FROM root
            WHERE t.key = $2::text AND root.owner = $6::text AND root.status = 'pending'
                AND root.parent_key IS NULL AND NOT (t.status = $3::text AND t.status <> 'pending')
            RETURNING t.key
        )
        SELECT target.parent_key, target.status, root.key, root.owner, EXISTS (SELECT 1 FROM settled)
        FROM target LEFT JOIN root ON true
        """
    }

    /// `$2` keys, `$3` owner, `$4` lease in ms. Rows: the keys renewed.
    var renew: String {
        """
        UPDATE \(table) SET lease_expires_at = \(Self.now) + $4::bigint
        WHERE key = ANY($2::text[]) AND owner = $3::text AND \(Self.pendingRoot)
        RETURNING key
        """
    }

    /// `$2` key, `$3` owner, `$4` delay in ms.
    var release: String {
        """
        UPDATE \(table) SET owner = NULL, lease_expires_at = \(Self.now) + $4::bigint, updated_at = \(Self.now)
        WHERE key = $2::text AND owner = $3::text AND \(Self.pendingRoot)
        """
    }

    /// Takes the queue's lock of claims with a concurrency limit: `$1` table, `$2` queue. Its
    /// own statement, so that the claim after it reads what earlier claimers committed.
    let lockQueue = "SELECT pg_advisory_xact_lock(hashtext($1::text), hashtext($2::text))"

    /// `$2` queue (`NULL` with `direct`), `$3` limit, `$4` concurrency or NULL, `$5` dead owner
    /// or NULL, `$6` owner, `$7` lease in ms. Rows: now, the next due time of the records not
    /// claimed, then a record claimed (or NULLs when none was).
    func claim(direct: Bool) -> String {
        let now = Self.now
        let queue = direct ? "queue IS NULL AND $2::text IS NULL" : "queue = $2::text"
        let open = "\(Self.pendingRoot) AND \(queue)"
        return """
            WITH running AS (
                SELECT count(*) AS n FROM \(table)
                WHERE $4::bigint IS NOT NULL AND \(open) AND owner IS NOT NULL AND lease_expires_at > \(now)
            ), picked AS (
                SELECT key FROM \(table)
                WHERE \(open) AND (lease_expires_at <= \(now) OR (owner = $5::text AND lease_expires_at IS NOT NULL))
                ORDER BY sequence
                LIMIT GREATEST(0, LEAST($3::bigint, $4::bigint - (SELECT n FROM running)))
                FOR UPDATE SKIP LOCKED
            ), claimed AS (
                UPDATE \(table) SET owner = $6::text, lease_expires_at = \(now) + $7::bigint, attempts = attempts + 1,
                    updated_at = \(now)
                WHERE key IN (SELECT key FROM picked)
                RETURNING \(Self.columns)
            )
            SELECT \(now),
                (SELECT min(lease_expires_at) FROM \(table)
                    WHERE \(open) AND lease_expires_at > \(now) AND key NOT IN (SELECT key FROM picked)),
                claimed.*
            FROM (SELECT 1) AS one LEFT JOIN claimed ON true
            """
    }

    /// `$2` key, `$3` kind, `$4` payload, `$5` parent, `$6` queue, `$7` delay in ms. Rows:
    /// whether it was inserted, then the record.
    var enqueue: String {
        let now = Self.now
        return """
            WITH inserted AS (
                INSERT INTO \(table) (key, kind, payload, parent_key, status, lease_expires_at, queue, attempts,
                    created_at, updated_at)
                VALUES ($2::text, $3::text, $4::bytea, $5::text, 'pending', \(now) + $7::bigint, $6::text, 0,
                    \(now), \(now))
                ON CONFLICT (key) DO NOTHING
                RETURNING \(Self.columns)
            )
            SELECT true, * FROM inserted
            UNION ALL SELECT false, \(Self.columns) FROM \(table)
                WHERE key = $2::text AND NOT EXISTS (SELECT 1 FROM inserted)
            """
    }

    /// `$1` date in ms. One row: how many records were deleted.
    var prune: String {
        """
        WITH roots AS (
            SELECT key FROM \(table) WHERE parent_key IS NULL AND status <> 'pending' AND updated_at < $1::bigint
        ), children AS (
            DELETE FROM \(table) WHERE parent_key IN (SELECT key FROM roots) RETURNING 1
        ), gone AS (
            DELETE FROM \(table) WHERE key IN (SELECT key FROM roots) RETURNING 1
        )
        SELECT (SELECT count(*) FROM children) + (SELECT count(*) FROM gone)
        """
    }

    /// The records that `clause` selects, as the reads return them.
    func select(_ clause: String) -> String {
        "SELECT \(Self.columns) FROM \(table) \(clause)"
    }
}
