import Foundation

// Claims in the batch function: nothing from a paused queue (v6); otherwise due roots of a queue, the highest priority first, then the
// oldest (the index `open_priority`), taken with `FOR UPDATE SKIP LOCKED` (answered in no order:
// the writer sorts them), under
// the queue's advisory lock when it has a concurrency limit or a rate limit, each answered with the owner it was
// taken from and its trace context (v8), no more than the queue's and the partitions' rate
// limit buckets allow (v9), each taken from its queue (no owner) keeping how long it waited since it
// fell due (v10); then when the next one falls due, or the next start a limit held back.

extension PostgresJournalBatchFunction {
    /// The trace context kept for the claimed record `key` (an SQL expression), as text, or NULL
    /// (``PostgresJournalManagementSQL/tracesTable(_:)``; v8).
    static func traceContext(_ table: String, _ key: String) -> String {
        "(SELECT c.context::text FROM \"\(PostgresJournalManagementSQL.tracesTable(table))\" AS c WHERE c.key = \(key))"
    }

    /// The claim's assignment of `pickup_ms` (v10): how long a record taken from its queue (no
    /// owner: its `lease_expires_at` is when it fell due) waited; a takeover keeps the first's.
    static let pickup = """
        pickup_ms = CASE WHEN t.owner IS NULL THEN GREATEST(0, v_now - t.lease_expires_at) ELSE t.pickup_ms END
        """

    /// Takes up to `v_room` due roots of `queue` (an SQL condition on `t`) for `v_owner`, and
    /// answers them, in one statement (v12; a statement to answer each claimed record was one
    /// start of a statement more per record); `v_taken` is how many.
    static func claim(_ t: String, _ table: String, _ queue: String) -> String {
        """
        RETURN QUERY WITH w AS (
            UPDATE \(t) AS t SET owner = v_owner, lease_expires_at = v_now + v_ms,
                attempts = t.attempts + 1, updated_at = v_now, \(pickup)
            FROM (
                SELECT s.key AS o_key, s.owner AS o_previous FROM \(t) AS s
                WHERE s.status = 'pending' AND s.parent_key IS NULL AND \(queue.replacingOccurrences(of: "t.", with: "s."))
                    AND (s.lease_expires_at <= v_now OR (s.owner = v_dead AND s.lease_expires_at IS NOT NULL))
                ORDER BY s.priority DESC, s.sequence LIMIT v_room FOR UPDATE SKIP LOCKED) AS o
            WHERE t.key = o.o_key
            RETURNING t.*, o.o_previous)
        SELECT v_i, \(PostgresJournalOutcome.claimed.literal)::text, v_now, w.o_previous::text,
            \(traceContext(table, "w.key")), NULL::bigint, \(writtenColumns) FROM w;
        GET DIAGNOSTICS v_taken = ROW_COUNT;
        """
    }

    /// The `claim` write for `queue` of `table` (quoted, `t`): room under the concurrency limit,
    /// the claim, and the time the next record falls due. The lock is the queue's
    /// (`behaviorkit.queue.` and the table's name, then the queue's), as every version takes it.
    /// A paused queue (a row in `<table>_paused`, v6) takes nothing and answers no next due time;
    /// a claim that waited for the queue's lock looks again once it holds it (v11), so that a
    /// pause committed during the wait stops it too.
    static func claimBranch(_ t: String, _ table: String, _ queue: String) -> String {
        let paused = """
            IF v_queue IS NOT NULL AND EXISTS (
                SELECT 1 FROM "\(PostgresJournalManagementSQL.pausedTable(table))" AS p WHERE p.queue = v_queue) THEN
                r := NULL;
                \(answer(.next, "NULL", "NULL", "NULL"))
                CONTINUE;
            END IF;
            """
        return """
            \(paused)
            \(readRateLimits(table))
            IF v_conc IS NOT NULL OR v_rq_n IS NOT NULL THEN
                PERFORM pg_advisory_xact_lock(hashtext('behaviorkit.queue.\(table)'), hashtext(COALESCE(v_queue, '')));
                \(paused)
            END IF;
            IF v_conc IS NOT NULL THEN
                SELECT count(*) INTO v_count FROM \(t) AS t
                WHERE \(pendingRoot) AND \(queue) AND t.owner IS NOT NULL AND t.lease_expires_at > v_now;
                v_room := LEAST(v_room, v_conc - v_count);
            END IF;
            \(queueRateRoom(table))
            v_taken := 0;
            IF v_room > 0 AND (v_plimit IS NOT NULL OR v_rp_n IS NOT NULL) THEN
                \(partitionedClaim(t, table, queue))
            ELSIF v_room > 0 THEN
                \(claim(t, table, queue))
            END IF;
            \(queueRateDebit(t, table, queue))
            SELECT min(t.lease_expires_at) INTO v_count FROM \(t) AS t
            WHERE \(pendingRoot) AND \(queue) AND t.lease_expires_at > v_now;
            r := NULL;
            \(answer(.next, "CASE WHEN v_held THEN 'rate' END", "NULL", "LEAST(v_count, v_wait)"))
            """
    }

    /// Takes up to `v_room` due roots of `queue` for `v_owner`, in the claim's order, skipping
    /// those whose partition already runs `v_plimit` records (v6). Each partition is counted under
    /// its own transaction-level advisory lock (`behaviorkit.partition.` and the table's name,
    /// then the queue's and the partition's names), taken with `pg_try_advisory_xact_lock`: a
    /// partition another claimer is counting now is skipped, as `SKIP LOCKED` skips its rows. Two
    /// claimers therefore never both see a partition one short of its limit (the second counts,
    /// in a new statement, only once the first committed), and never wait on each other in
    /// opposite orders (no deadlock). A record taken over from a stopped owner gives its own
    /// place back.
    static func partitionedClaim(_ t: String, _ table: String, _ queue: String) -> String {
        let s = queue.replacingOccurrences(of: "t.", with: "s.")
        return """
            v_full := '{}';
            FOR v_rec IN SELECT s.key AS c_key, s.owner AS c_owner, s.partition_key AS c_partition,
                    (s.owner IS NOT NULL AND s.lease_expires_at > v_now) AS c_running
                FROM \(t) AS s
                WHERE s.status = 'pending' AND s.parent_key IS NULL AND \(s)
                    AND (s.lease_expires_at <= v_now OR (s.owner = v_dead AND s.lease_expires_at IS NOT NULL))
                ORDER BY s.priority DESC, s.sequence FOR UPDATE SKIP LOCKED LOOP
                EXIT WHEN v_taken >= v_room;
                IF v_rec.c_partition IS NOT NULL THEN
                    CONTINUE WHEN v_rec.c_partition = ANY(v_full);
                    IF NOT pg_try_advisory_xact_lock(hashtext('behaviorkit.partition.\(table)'),
                        hashtext(COALESCE(v_queue, '') || E'\\n' || v_rec.c_partition)) THEN
                        v_full := v_full || v_rec.c_partition;
                        CONTINUE;
                    END IF;
                    IF v_plimit IS NOT NULL THEN
                        SELECT count(*) INTO v_count FROM \(t) AS t
                        WHERE \(pendingRoot) AND \(queue) AND t.partition_key = v_rec.c_partition
                            AND t.owner IS NOT NULL AND t.lease_expires_at > v_now;
                        IF v_count - (CASE WHEN v_rec.c_running THEN 1 ELSE 0 END) >= v_plimit THEN
                            v_full := v_full || v_rec.c_partition;
                            CONTINUE;
                        END IF;
                    END IF;
                    \(partitionRateDebit(table))
                END IF;
                UPDATE \(t) AS t SET owner = v_owner, lease_expires_at = v_now + v_ms, attempts = t.attempts + 1,
                    updated_at = v_now, \(pickup)
                WHERE t.key = v_rec.c_key RETURNING t.* INTO r;
                v_taken := v_taken + 1;
                RETURN QUERY SELECT v_i, \(PostgresJournalOutcome.claimed.literal)::text, v_now, v_rec.c_owner::text,
                    \(traceContext(table, "v_rec.c_key")), NULL::bigint, \(recordColumns);
            END LOOP;
            """
    }
}
