/// The statements of a ``PostgresMachineStore``, run as prepared statements: each connection
/// parses and plans them once. Parameters are typed in the SQL (`$1::text`), times are
/// milliseconds since 1970.
struct PostgresMachineSQL: Sendable {
    typealias Text = PreparedJournalStatement.Text

    let commit, instance, stepByEvent, history, dueTimers, nextTimerDue: Text
    let claimEffects, renewEffect, finishEffect, countsByState, pruneHistory: Text
    /// `keys(in:)` with neither bound, with `enteredBefore`, with a cursor, with both.
    let keys, keysBefore, keysAfter, keysBeforeAndAfter: Text

    init(prefix: String) {
        let instance = "\"\(prefix)_instance\""
        let state = "\"\(prefix)_state\""
        let step = "\"\(prefix)_step\""
        let timer = "\"\(prefix)_timer\""
        let effect = "\"\(prefix)_effect\""
        let thisKey = "machine = $1::text AND key = $2::text"
        commit = Text(PostgresMachineCommitFunction.call(prefix))
        self.instance = Text(
            """
            SELECT i.version, i.snapshot, i.created_at, i.updated_at,
                ARRAY(SELECT s.state FROM \(state) AS s WHERE s.machine = i.machine AND s.key = i.key
                    ORDER BY s.position),
                ARRAY(SELECT s.entered_at FROM \(state) AS s WHERE s.machine = i.machine AND s.key = i.key
                    ORDER BY s.position)
            FROM \(instance) AS i WHERE i.machine = $1::text AND i.key = $2::text
            """)
        stepByEvent = Text("SELECT sequence, event_id, at, body FROM \(step) WHERE \(thisKey) AND event_id = $3::text")
        history = Text(
            """
            SELECT sequence, event_id, at, body FROM \(step) WHERE \(thisKey) AND sequence > $3::bigint
            ORDER BY sequence LIMIT $4::bigint
            """)
        dueTimers = Text(
            """
            SELECT key, id, due_at, body FROM \(timer) WHERE machine = $1::text AND due_at <= $2::bigint
            ORDER BY due_at, key, id LIMIT $3::bigint
            """)
        nextTimerDue = Text("SELECT min(due_at) FROM \(timer) WHERE machine = $1::text")
        // $1 machine, $2 owner, $3 now, $4 lease end, $5 limit.
        claimEffects = Text(
            """
            UPDATE \(effect) AS e SET owner = $2::text, lease_expires_at = $4::bigint, attempts = e.attempts + 1
            FROM (
                SELECT c.key AS c_key, c.id AS c_id FROM \(effect) AS c
                WHERE c.machine = $1::text AND (c.lease_expires_at IS NULL OR c.lease_expires_at <= $3::bigint)
                ORDER BY c.key, c.id LIMIT $5::bigint FOR UPDATE SKIP LOCKED) AS o
            WHERE e.machine = $1::text AND e.key = o.c_key AND e.id = o.c_id
            RETURNING e.key, e.id, e.body, e.owner, e.lease_expires_at, e.attempts
            """)
        // $1 machine, $2 key, $3 id, $4 owner, $5 attempts, $6 lease end.
        let held = "\(thisKey) AND id = $3::text AND owner = $4::text AND attempts = $5::bigint"
        renewEffect = Text("UPDATE \(effect) SET lease_expires_at = $6::bigint WHERE \(held) RETURNING 1")
        finishEffect = Text("DELETE FROM \(effect) WHERE \(held) RETURNING 1")
        countsByState = Text("SELECT state, count(*) FROM \(state) WHERE machine = $1::text GROUP BY state")
        pruneHistory = Text(
            """
            WITH pruned AS (
                DELETE FROM \(step) AS s USING \(instance) AS i
                WHERE s.machine = $1::text AND i.machine = $1::text AND i.key = s.key AND s.at < $2::bigint
                    AND s.sequence <> i.version
                RETURNING 1)
            SELECT count(*) FROM pruned
            """)
        // $1 machine, $2 state, $3 limit, then the bounds.
        func keys(_ bounds: String) -> Text {
            Text(
                """
                SELECT key, state, entered_at FROM \(state) WHERE machine = $1::text AND state = $2::text\(bounds)
                ORDER BY entered_at, key LIMIT $3::bigint
                """)
        }
        self.keys = keys("")
        keysBefore = keys(" AND entered_at < $4::bigint")
        keysAfter = keys(" AND (entered_at, key) > ($4::bigint, $5::text)")
        keysBeforeAndAfter = keys(" AND entered_at < $4::bigint AND (entered_at, key) > ($5::bigint, $6::text)")
    }
}
